package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * What the web console's listener ({@code serve --console}) answers: the page's static files
 * ({@link ConsoleAssets}) without a token, and the HTTP API under {@code /v1/} only with
 * {@code Authorization: Bearer <console token>} ({@link BearerAuth}); missing or wrong, it is 401
 * {@code UNAUTHORIZED} in the API's JSON error body. The token is never read from a cookie or a
 * query parameter, so another site cannot make a browser send it (no CSRF surface).
 *
 * <p>The API is the one {@link TetherHandler} answers on the main listener (same routes, bodies
 * and errors), limited to the reads and sends the console makes: {@code GET} and {@code POST}.
 * Registering or deleting instances ({@code PUT}, {@code DELETE}) is refused with 405.
 *
 * <p>Every answer carries a strict Content-Security-Policy (scripts, styles and connections from
 * this origin only; images also as {@code data:} and {@code blob:} URLs, which is how the page
 * shows frame images), {@code X-Content-Type-Options: nosniff} and
 * {@code Referrer-Policy: no-referrer}; API answers also {@code Cache-Control: no-store}.
 * Stateless and thread-safe.
 */
final class ConsoleRoutes {
  static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
      + " img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private final TetherHandler api;
  private final BearerAuth auth;
  private final ConsoleAssets assets;

  ConsoleRoutes(TetherHandler api, String token, ConsoleAssets assets) {
    this.api = api;
    this.auth = new BearerAuth(token);
    this.assets = assets;
  }

  /** Answers one request of the console listener; always handles it. */
  boolean handle(Request request, Response response, Callback callback) {
    var headers = response.getHeaders();
    headers.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Referrer-Policy", "no-referrer");
    String path = request.getHttpURI().getDecodedPath();
    String method = request.getMethod();
    if (path.equals("/v1") || path.startsWith("/v1/")) {
      headers.put(HttpHeader.CACHE_CONTROL, "no-store");
      if (!auth.accepts(request.getHeaders().get(HttpHeader.AUTHORIZATION))) {
        headers.put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
        return send(response, callback, ErrorCode.UNAUTHORIZED, "a valid 'Authorization: Bearer <token>' header is required;"
            + " open the console with the URL 'tether serve --console' printed");
      }
      if (!"GET".equals(method) && !"POST".equals(method)) {
        headers.put(HttpHeader.ALLOW, "GET, POST");
        return send(response, callback, ErrorCode.METHOD_NOT_ALLOWED, "the console reads and sends only (GET, POST);"
            + " use the main listener to register or delete instances");
      }
      return api.handleAuthenticated(request, response, callback);
    }
    if (!"GET".equals(method)) {
      headers.put(HttpHeader.ALLOW, "GET");
      return send(response, callback, ErrorCode.METHOD_NOT_ALLOWED, "the console's files are read with GET");
    }
    return assets.find(path).map(asset -> {
      headers.put(HttpHeader.CACHE_CONTROL, "no-cache");
      headers.put(HttpHeader.CONTENT_TYPE, asset.contentType());
      headers.put(HttpHeader.CONTENT_LENGTH, asset.body().length);
      response.write(true, ByteBuffer.wrap(asset.body()).asReadOnlyBuffer(), callback);
      return true;
    }).orElseGet(() -> send(response, callback, ErrorCode.NOT_FOUND, "the console has no file " + shorten(path)));
  }

  private static boolean send(Response response, Callback callback, ErrorCode code, String message) {
    byte[] body = ErrorBody.of(code, message);
    response.setStatus(code.httpStatus());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  private static String shorten(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
