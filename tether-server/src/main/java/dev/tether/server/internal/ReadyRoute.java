package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.store.Readiness;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /v1/ready}, the readiness probe: 200 {@code {"ready":true}} when the server is not
 * shutting down and its store is open and reachable, else 503 with the usual error body, code
 * {@code UNAVAILABLE} and the reason ("not ready: ..."). {@code /v1/health} stays the liveness
 * check: it answers 200 as long as the process serves HTTP. Neither is cached by clients.
 */
final class ReadyRoute {
  private static final byte[] READY = "{\"ready\":true}\n".getBytes(StandardCharsets.US_ASCII);

  private ReadyRoute() {}

  static boolean answer(Readiness readiness, Response response, Callback callback) {
    byte[] body = readiness.ready() ? READY
        : ErrorBody.of(ErrorCode.UNAVAILABLE, "not ready: " + readiness.reason());
    response.setStatus(readiness.ready() ? 200 : ErrorCode.UNAVAILABLE.httpStatus());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
