package dev.tether.server.internal;

import static dev.tether.server.internal.RouteTable.ANYONE;
import static dev.tether.server.internal.RouteTable.HOST_ONLY;

import dev.tether.server.internal.RouteTable.Caller;
import dev.tether.server.internal.RouteTable.Route;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Every route of the HTTP API, one row each: method, path template (also its metric name), who
 * may call it and the handler. {@code ANYONE} is the host, an instance token (for its own
 * {@code {id}} where the path names one) and the console; the console's listener lets only GET
 * and POST through, which {@link Route} enforces. {@code Route.ingress} rows (what puts frames, blobs
 * and attachments into an instance) are held to the ingress rate limits. Adding a route is adding a
 * row here.
 */
final class ApiRoutes {
  private static final Set<Caller> HOST_AND_CONSOLE = EnumSet.of(Caller.HOST, Caller.CONSOLE);
  private static final Set<Caller> NOT_CONSOLE = EnumSet.of(Caller.HOST, Caller.INSTANCE);

  static final RouteTable TABLE = new RouteTable(List.of(
      new Route("GET", "/v1/health", ANYONE, TetherHandler::health),
      new Route("HEAD", "/v1/health", NOT_CONSOLE, TetherHandler::health),
      new Route("GET", "/v1/ready", ANYONE, TetherHandler::ready),
      new Route("HEAD", "/v1/ready", NOT_CONSOLE, TetherHandler::ready),
      new Route("GET", "/v1/tokens", HOST_ONLY, TetherHandler::listTokens),
      new Route("POST", "/v1/tokens", HOST_ONLY, TetherHandler::mintToken),
      new Route("DELETE", "/v1/tokens/{id}", HOST_ONLY, TetherHandler::revokeToken),
      new Route("GET", "/v1/instances", HOST_AND_CONSOLE, TetherHandler::listInstances),
      new Route("GET", "/v1/instances/{id}", ANYONE, TetherHandler::getInstance), // an instance token: without workspace
      new Route("PUT", "/v1/instances/{id}", HOST_ONLY, TetherHandler::putInstance),
      new Route("DELETE", "/v1/instances/{id}", HOST_ONLY, TetherHandler::deleteInstance),
      Route.ingress("POST", "/v1/instances/{id}/tether", ANYONE, TetherHandler::ingress),
      new Route("GET", "/v1/instances/{id}/tether/poll", ANYONE, (h, c) -> h.waitRoutes.poll(c)),
      new Route("GET", "/v1/instances/{id}/tether/stream", ANYONE, (h, c) -> h.waitRoutes.stream(c)),
      new Route("GET", "/v1/instances/{id}/tether/watermark", ANYONE, TetherHandler::watermark),
      new Route("POST", "/v1/instances/{id}/tether/watermark", ANYONE, TetherHandler::setWatermark),
      Route.ingress("POST", "/v1/instances/{id}/blob", ANYONE, (h, c) -> h.files.uploadBlob(c)),
      new Route("GET", "/v1/instances/{id}/blob/{key}", ANYONE, (h, c) -> h.files.downloadBlob(c)),
      new Route("GET", "/v1/instances/{id}/attachments", ANYONE, (h, c) -> h.files.listAttachments(c)),
      Route.ingress("POST", "/v1/instances/{id}/attachments", ANYONE, (h, c) -> h.files.uploadAttachment(c)),
      new Route("GET", "/v1/instances/{id}/attachments/{name}", ANYONE, (h, c) -> h.files.downloadAttachment(c)),
      new Route("DELETE", "/v1/instances/{id}/attachments/{name}", NOT_CONSOLE, (h, c) -> h.files.deleteAttachment(c))));

  private ApiRoutes() {}
}
