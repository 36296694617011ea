package dev.tether.client;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a tether host listens or is reached: a Unix domain socket path, or a TCP host and port.
 * The server ({@code dev.tether.server.TetherServer}) listens on one and the HTTP client
 * ({@code dev.tether.client.http.HttpTetherClient}) connects to one.
 *
 * <p>Parsed from {@code unix:/path}, a bare path containing {@code /}, {@code http://host:port} or
 * {@code host:port}. Immutable values; thread-safe.
 */
public sealed interface HostAddress {
  /** A Unix domain socket file. */
  record Unix(Path path) implements HostAddress {
    public Unix {
      Objects.requireNonNull(path, "path");
    }

    @Override
    public String toString() {
      return "unix:" + path;
    }
  }

  /** A TCP endpoint. */
  record Tcp(String host, int port) implements HostAddress {
    public Tcp {
      Objects.requireNonNull(host, "host");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0..65535 but was " + port);
      }
    }

    /** Whether the host resolves to loopback addresses only (false when it does not resolve). */
    public boolean isLoopback() {
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
  static HostAddress parse(String value) {
    return AddressSyntax.parse(value);
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
    return new Unix(Path.of(AddressSyntax.home(), ".tether", "tether.sock"));
  }
}
