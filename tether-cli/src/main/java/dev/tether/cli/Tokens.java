package dev.tether.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Bearer tokens for the TCP listener, kept in a file only the owner can read. */
final class Tokens {
  private Tokens() {}

  static Path defaultFile() {
    return Path.of(Address.home(), ".tether", "token");
  }

  /** The token in {@code file}; when the file is missing, a new random one written with mode 0600. */
  static String loadOrCreate(Path file) throws IOException {
    if (Files.exists(file)) {
      return read(file);
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    String token = HexFormat.of().formatHex(random);
    // Created with mode 0600 in one step, so the token is never readable by others.
    try (var ch = Files.newByteChannel(file, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
      ch.write(java.nio.ByteBuffer.wrap((token + "\n").getBytes(StandardCharsets.US_ASCII)));
    }
    return token;
  }

  /** The token in {@code file}, trimmed. */
  static String read(Path file) throws IOException {
    String token = Files.readString(file, StandardCharsets.UTF_8).trim();
    if (token.isEmpty()) {
      throw new IOException("token file " + file + " is empty");
    }
    return token;
  }
}
