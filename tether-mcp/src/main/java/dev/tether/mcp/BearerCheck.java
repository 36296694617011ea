package dev.tether.mcp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The bearer token of a standalone {@link McpHttpServer}: every request must carry
 * {@code Authorization: Bearer <token>}, compared in constant time; anything else gets 401
 * {@code UNAUTHORIZED} with {@code WWW-Authenticate: Bearer}. Thread-safe (immutable).
 */
final class BearerCheck extends Handler.Wrapper {
  private final byte[] token;

  BearerCheck(Handler next, String token) {
    super(next);
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    String presented = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : null;
    if (presented == null || !MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8))) {
      response.setStatus(401);
      response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
      byte[] body = "{\"error\":{\"code\":\"UNAUTHORIZED\",\"message\":\"a valid 'Authorization: Bearer <token>' header is required\"}}\n"
          .getBytes(StandardCharsets.US_ASCII);
      response.write(true, ByteBuffer.wrap(body), callback);
      return true;
    }
    return super.handle(request, response, callback);
  }
}
