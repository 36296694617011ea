package dev.tether.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Shared option handling of the client commands ({@code agent}, {@code mcp}). */
final class Connections {
  private Connections() {}

  /** The bearer token for a TCP address (from the file, or the default file when it exists); null for a socket. */
  static String token(Address address, Path tokenFile) throws IOException {
    if (address instanceof Address.Unix) {
      return null;
    }
    Path file = tokenFile == null ? Tokens.defaultFile() : tokenFile;
    if (!Files.exists(file)) {
      throw new UsageException("a TCP host needs its bearer token; no token file at " + file + " (use --token-file)");
    }
    return Tokens.read(file);
  }
}
