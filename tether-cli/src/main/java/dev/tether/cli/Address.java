package dev.tether.cli;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a tether host listens or is reached: a Unix domain socket path, or a TCP host and port.
 *
 * <p>Parsed from {@code unix:/path}, a bare path containing {@code /}, {@code http://host:port} or
 * {@code host:port}. Immutable.
 */
sealed interface Address {
  /** A Unix domain socket file. */
  record Unix(Path path) implements Address {
    public Unix {
      Objects.requireNonNull(path, "path");
    }

    @Override
    public String toString() {
      return "unix:" + path;
    }
  }

  /** A TCP endpoint. */
  record Tcp(String host, int port) implements Address {
    public Tcp {
      Objects.requireNonNull(host, "host");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0..65535 but was " + port);
      }
    }

    /** Whether the host resolves to a loopback address only. */
    boolean isLoopback() {
      try {
        for (InetAddress a : InetAddress.getAllByName(host)) {
          if (!a.isLoopbackAddress()) {
            return false;
          }
        }
        return true;
      } catch (UnknownHostException e) {
        return false;
      }
    }

    @Override
    public String toString() {
      return host + ":" + port;
    }
  }

  /**
   * Parses an address.
   *
   * @throws IllegalArgumentException naming the value when it is neither form
   */
  /** A URI scheme ({@code name://}); only {@code http} is spoken. */
  java.util.regex.Pattern SCHEME = java.util.regex.Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://");

  static Address parse(String value) {
    Objects.requireNonNull(value, "value");
    if (value.startsWith("unix:")) {
      return new Unix(Path.of(value.substring("unix:".length())));
    }
    if (value.startsWith("http://")) {
      URI uri = URI.create(value);
      if (uri.getHost() == null || uri.getPort() < 0) {
        throw new IllegalArgumentException("address must be http://HOST:PORT but was '" + value + "'");
      }
      return new Tcp(uri.getHost(), uri.getPort());
    }
    java.util.regex.Matcher scheme = SCHEME.matcher(value);
    if (scheme.find()) {
      // Not a socket path that happens to contain "//": https:, ws:, a typo like htp:.
      throw new IllegalArgumentException("address scheme '" + scheme.group(1) + "' is not supported in '" + value
          + "'; use unix:/path/to.sock, /path/to.sock or http://HOST:PORT");
    }
    if (value.contains("/")) {
      return new Unix(Path.of(value));
    }
    int colon = value.lastIndexOf(':');
    if (colon > 0) {
      String host = value.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      try {
        return new Tcp(host, Integer.parseInt(value.substring(colon + 1)));
      } catch (NumberFormatException e) {
        // fall through to the error below
      }
    }
    throw new IllegalArgumentException(
        "address must be a socket path (unix:/path or /path) or HOST:PORT but was '" + value + "'");
  }

  /**
   * The default socket: {@code $XDG_RUNTIME_DIR/tether.sock} when that directory is set (it is
   * private to the user by definition), else {@code ~/.tether/tether.sock}.
   */
  static Unix defaultSocket() {
    String runtime = System.getenv("XDG_RUNTIME_DIR");
    if (runtime != null && !runtime.isBlank()) {
      return new Unix(Path.of(runtime, "tether.sock"));
    }
    return new Unix(Path.of(home(), ".tether", "tether.sock"));
  }

  /** {@code $HOME} when set (as the shell sees it), else the JVM's {@code user.home}. */
  static String home() {
    String home = System.getenv("HOME");
    return home != null && !home.isBlank() ? home : System.getProperty("user.home");
  }
}
