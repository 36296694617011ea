package dev.tether.server.internal;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the errors Jetty raises itself (a malformed request line or header, bad
 * percent-encoding, {@code ..} in the path, a URI that is too long, bad chunking, a conflicting
 * Content-Length) with the API's JSON error body instead of Jetty's HTML page, so that every
 * answer of the server keeps one contract: {@code {"error":{"code","message"}}}.
 *
 * <p>The code comes from {@link ErrorBody#codeFor(int)}; the message is Jetty's reason, which
 * names what was wrong with the request. Nothing is logged: these are client faults. Stateless
 * and thread-safe.
 */
final class JsonErrorHandler extends ErrorHandler {

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus();
    if (request.getAttribute(ERROR_STATUS) instanceof Integer s) {
      status = s;
    }
    if (status < 400) {
      status = 500;
    }
    String reason = request.getAttribute(ERROR_MESSAGE) instanceof String m ? m : null;
    byte[] body = ErrorBody.forStatus(status, reason);
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.getHeaders().put(ERROR_CACHE_CONTROL);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  /** The body for a request that could not even be parsed into a {@link Request}. */
  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, "application/json");
    return ByteBuffer.wrap(ErrorBody.forStatus(status, reason));
  }
}
