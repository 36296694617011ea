package dev.tether.server.internal;

/**
 * Maps a request path to its route template for metrics, read from the route table
 * ({@link ApiRoutes#TABLE}): a fixed, small set of names (see
 * {@link dev.tether.server.ServerListener#requested}), so that no instance id, blob key or
 * hostile path ever becomes a tag value. Pure functions; thread-safe.
 */
final class RouteNames {
  static final String OTHER = "other";

  private RouteNames() {}

  /** The template of {@code path} (the raw path; null or a path of no route is {@code other}). */
  static String of(String path) {
    return ApiRoutes.TABLE.find(path).metric();
  }

  /** The method if the API uses it, else {@code OTHER} (a client may send any token as a method). */
  static String method(String method) {
    return switch (method) {
      case "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS" -> method;
      default -> "OTHER";
    };
  }
}
