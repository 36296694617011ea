package dev.tether.server.internal;

/**
 * Maps a request path to its route template for metrics: a fixed, small set of names (see
 * {@link dev.tether.server.ServerListener#requested}), so that no instance id, blob key or
 * hostile path ever becomes a tag value. Pure functions; thread-safe.
 */
final class RouteNames {
  static final String OTHER = "other";

  private RouteNames() {}

  /** The template of {@code path} (the raw path; null is {@code other}). */
  static String of(String path) {
    if (path == null || !path.startsWith("/v1/")) {
      return OTHER;
    }
    String[] p = path.split("/", 8);
    // "", "v1", ...
    if (p.length == 3) {
      return switch (p[2]) {
        case "health" -> "/v1/health";
        case "ready" -> "/v1/ready";
        case "instances" -> "/v1/instances";
        case "tokens" -> "/v1/tokens";
        default -> OTHER;
      };
    }
    if ("tokens".equals(p[2])) {
      return p.length == 4 && !p[3].isEmpty() ? "/v1/tokens/{id}" : OTHER;
    }
    if (!"instances".equals(p[2]) || p[3].isEmpty()) {
      return OTHER;
    }
    if (p.length == 4) {
      return "/v1/instances/{id}";
    }
    String resource = p[4];
    if (p.length == 5) {
      return switch (resource) {
        case "tether" -> "/v1/instances/{id}/tether";
        case "blob" -> "/v1/instances/{id}/blob";
        default -> OTHER;
      };
    }
    if (p.length == 6 && "tether".equals(resource)) {
      return switch (p[5]) {
        case "poll" -> "/v1/instances/{id}/tether/poll";
        case "stream" -> "/v1/instances/{id}/tether/stream";
        case "watermark" -> "/v1/instances/{id}/tether/watermark";
        default -> OTHER;
      };
    }
    if (p.length == 6 && "blob".equals(resource) && !p[5].isEmpty()) {
      return "/v1/instances/{id}/blob/{key}";
    }
    return OTHER;
  }

  /** The method if the API uses it, else {@code OTHER} (a client may send any token as a method). */
  static String method(String method) {
    return switch (method) {
      case "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS" -> method;
      default -> "OTHER";
    };
  }
}
