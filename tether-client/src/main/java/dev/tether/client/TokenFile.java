package dev.tether.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * Bearer tokens of a host's TCP listener, kept in a file only the owner can read: the server
 * creates one, its clients read it.
 *
 * <p>A token file is refused with an {@link IllegalArgumentException} that says how to fix it when it is a
 * directory, when group or others have any access to it (the token would be no secret), or when
 * it holds fewer than {@value #MIN_BYTES} bytes (too easy to guess). A generated token is 32
 * random bytes as 64 hex digits.
 */
public final class TokenFile {
  /** The shortest token accepted, in bytes (after trimming whitespace). */
  public static final int MIN_BYTES = 32;

  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private TokenFile() {}

  /** {@code ~/.tether/token}: where {@code tether serve --listen} keeps its token unless told otherwise. */
  public static Path defaultFile() {
    return Path.of(AddressSyntax.home(), ".tether", "token");
  }

  /**
   * The token in {@code file}; when the file is missing, a new random one written with mode 0600
   * (its directory created 0700 when missing).
   *
   * @throws IllegalArgumentException when an existing file breaks a rule of {@link #read}
   * @throws IOException when the file cannot be read or written
   */
  public static String loadOrCreate(Path file) throws IOException {
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) || Files.exists(file)) {
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
    try (var ch = Files.newByteChannel(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
      ch.write(ByteBuffer.wrap((token + "\n").getBytes(StandardCharsets.US_ASCII)));
    }
    return token;
  }

  /**
   * The token in {@code file}, trimmed.
   *
   * @throws IllegalArgumentException when the file is missing, a directory, open to group or others, or too short
   * @throws IOException when it cannot be read
   */
  public static String read(Path file) throws IOException {
    if (!Files.exists(file)) {
      throw new IllegalArgumentException("token file " + file + " does not exist; 'tether serve --listen' creates it,"
          + " or pass the right one with --token-file");
    }
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException("token file " + file + " is a directory; pass the token file itself with --token-file");
    }
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.stream().anyMatch(OTHERS::contains)) {
        throw new IllegalArgumentException("token file " + file + " is accessible to other users (mode "
            + PosixFilePermissions.toString(perms) + "); run: chmod 600 " + file);
      }
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: nothing to check
    }
    String token = Files.readString(file, StandardCharsets.UTF_8).trim();
    int bytes = token.getBytes(StandardCharsets.UTF_8).length;
    if (bytes < MIN_BYTES) {
      throw new IllegalArgumentException("token file " + file + " holds " + (bytes == 0 ? "no token" : "a token of only " + bytes + " bytes")
          + "; a token needs at least " + MIN_BYTES + ". Delete the file and 'tether serve --listen' writes a new random one"
          + " (or write 32+ random bytes, e.g. openssl rand -hex 32 > " + file + ")");
    }
    return token;
  }
}
