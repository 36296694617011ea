package dev.tether.server.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The web console's static files, read once from the jar ({@code dev/tether/cli/console/}).
 *
 * <p>Only the files named here are served, each at one fixed path ({@code /} is the page): a
 * request path is looked up in this table and never turned into a resource or file name, so
 * {@code ..}, encoded slashes or other class-path resources cannot be reached. The files hold no
 * data, so they are served without the token. Immutable and thread-safe; the bytes are shared,
 * never handed out for writing.
 */
final class ConsoleAssets {
  /** A file and the {@code Content-Type} it is served with. */
  record Asset(byte[] body, String contentType) {}

  private static final String ROOT = "console/";
  private static final Map<String, String> FILES = Map.of(
      "index.html", "text/html; charset=utf-8",
      "console.js", "text/javascript; charset=utf-8",
      "console.css", "text/css; charset=utf-8");

  private final Map<String, Asset> byPath;

  private ConsoleAssets(Map<String, Asset> byPath) {
    this.byPath = byPath;
  }

  /**
   * Reads the files from the class path.
   *
   * @throws IllegalStateException when one is missing (a broken build)
   */
  static ConsoleAssets load() {
    HashMap<String, Asset> m = new HashMap<>();
    FILES.forEach((name, type) -> m.put("/" + name, new Asset(read(name), type)));
    m.put("/", m.get("/index.html"));
    return new ConsoleAssets(Map.copyOf(m));
  }

  /** The file served at {@code path} (the decoded request path), if any. */
  Optional<Asset> find(String path) {
    return Optional.ofNullable(byPath.get(path));
  }

  private static byte[] read(String name) {
    try (InputStream in = ConsoleAssets.class.getResourceAsStream(ROOT + name)) {
      if (in == null) {
        throw new IllegalStateException("the console file " + ROOT + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
