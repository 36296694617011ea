package dev.tether.cli;

import dev.tether.client.HostAddress;
import dev.tether.client.TokenFile;
import dev.tether.client.http.HttpTetherClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Shared option handling of the client commands ({@code agent}, {@code mcp}, the bridges). */
final class Connections {
  private Connections() {}

  /**
   * The HTTP client of the host at {@code address}: a TCP host needs its bearer token, from
   * {@code tokenFile} or the default file; a socket needs none.
   *
   * @throws UsageException when a TCP host has no token file, or the file breaks a rule of {@link TokenFile}
   */
  static HttpTetherClient connect(HostAddress address, Path tokenFile, boolean blobImages) throws IOException {
    HttpTetherClient.Builder b = HttpTetherClient.builder(address).blobImages(blobImages);
    if (address instanceof HostAddress.Tcp) {
      Path file = tokenFile == null ? TokenFile.defaultFile() : tokenFile;
      if (!Files.exists(file)) {
        throw new UsageException("a TCP host needs its bearer token; no token file at " + file + " (use --token-file)");
      }
      try {
        b.token(TokenFile.read(file));
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    return b.build();
  }

  /** {@code $HOME} when set (as the shell sees it), else the JVM's {@code user.home}. */
  static Path home() {
    String home = System.getenv("HOME");
    return Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"));
  }
}
