package dev.tether.client;

import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The text forms of a {@link HostAddress} and the user's home directory. Stateless. */
final class AddressSyntax {
  /** A URI scheme ({@code name://}); only {@code http} is spoken. */
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://");

  private AddressSyntax() {}

  static HostAddress parse(String value) {
    Objects.requireNonNull(value, "value");
    if (value.startsWith("unix:")) {
      return new HostAddress.Unix(Path.of(value.substring("unix:".length())));
    }
    if (value.startsWith("http://")) {
      URI uri = URI.create(value);
      if (uri.getHost() == null || uri.getPort() < 0) {
        throw new IllegalArgumentException("address must be http://HOST:PORT but was '" + value + "'");
      }
      return new HostAddress.Tcp(uri.getHost(), uri.getPort());
    }
    Matcher scheme = SCHEME.matcher(value);
    if (scheme.find()) {
      // Not a socket path that happens to contain "//": https:, ws:, a typo like htp:.
      throw new IllegalArgumentException("address scheme '" + scheme.group(1) + "' is not supported in '" + value
          + "'; use unix:/path/to.sock, /path/to.sock or http://HOST:PORT");
    }
    if (value.contains("/")) {
      return new HostAddress.Unix(Path.of(value));
    }
    int colon = value.lastIndexOf(':');
    if (colon > 0) {
      String host = value.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      try {
        return new HostAddress.Tcp(host, Integer.parseInt(value.substring(colon + 1)));
      } catch (NumberFormatException e) {
        // fall through to the error below
      }
    }
    throw new IllegalArgumentException(
        "address must be a socket path (unix:/path or /path) or HOST:PORT but was '" + value + "'");
  }

  /** {@code $HOME} when set (as the shell sees it), else the JVM's {@code user.home}. */
  static String home() {
    String home = System.getenv("HOME");
    return home != null && !home.isBlank() ? home : System.getProperty("user.home");
  }
}
