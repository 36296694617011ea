package dev.tether.mcp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Refuses cross-origin browser requests to the MCP endpoint, as the MCP specification's security
 * notes for the Streamable HTTP transport ask (against DNS rebinding: a web page must not drive
 * a local MCP server). A request without an {@code Origin} header (every non-browser client) passes;
 * one whose {@code Origin} is not in the allowed set, compared case-insensitively, gets 403
 * {@code PERMISSION_DENIED}. The default set is empty: no web page may call. Thread-safe
 * (immutable).
 */
final class OriginCheck extends Handler.Wrapper {
  private final Set<String> allowed;

  OriginCheck(Handler next, Set<String> allowedOrigins) {
    super(next);
    this.allowed = allowedOrigins.stream().map(o -> o.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    var origins = request.getHeaders().getValuesList(HttpHeader.ORIGIN);
    for (String origin : origins) {
      if (!allowed.contains(origin.trim().toLowerCase(Locale.ROOT))) {
        refuse(response, callback, "cross-origin requests to the MCP endpoint are refused (Origin "
            + McpHttpEndpoint.quoted(origin) + " is not allowed)");
        return true;
      }
    }
    return super.handle(request, response, callback);
  }

  static void refuse(Response response, Callback callback, String message) {
    response.setStatus(403);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    String body = "{\"error\":{\"code\":\"PERMISSION_DENIED\",\"message\":" + McpJson.write(message) + "}}\n";
    response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
  }
}
