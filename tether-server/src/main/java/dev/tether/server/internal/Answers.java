package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.store.StoreUnavailableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * How the API writes its answers: a {@link Reply}, a JSON error body, 404 for a path of no route,
 * 405 with {@code Allow}, and a failure mapped to its status ({@link #fail}) with the server's own
 * failures logged through one {@link FailureLog}. Thread-safe.
 */
final class Answers {
  private final FailureLog failures = new FailureLog();

  /** The server's own failures so far (logged or rate-limited). */
  long failures() {
    return failures.total();
  }

  /** I/O work that answers a request. */
  @FunctionalInterface
  interface IoSupplier {
    Reply get() throws IOException;
  }

  /** I/O work on a body that answers a request. */
  @FunctionalInterface
  interface IoFunction<T, R> {
    R apply(T t) throws IOException;
  }

  boolean replyIo(Response response, Callback callback, IoSupplier work) {
    try {
      return reply(response, callback, work.get());
    } catch (IOException e) {
      fail(response, callback, e);
      return true;
    }
  }

  static boolean reply(Response response, Callback callback, Reply r) {
    response.setStatus(r.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, r.contentType());
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, r.body().length);
    response.write(true, ByteBuffer.wrap(r.body()), callback);
    return true;
  }

  static boolean noSuchEndpoint(Response response, Callback callback, String path) {
    return send(response, callback, 404, ErrorBody.of(ErrorCode.NOT_FOUND, "no such endpoint: " + path));
  }

  static void busy(Response response, Callback callback, String why) {
    response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    send(response, callback, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE, why));
  }

  static boolean notAllowed(Response response, Callback callback, String allowed) {
    response.getHeaders().put(HttpHeader.ALLOW, allowed);
    return send(response, callback, ErrorCode.METHOD_NOT_ALLOWED.httpStatus(), ErrorBody.of(ErrorCode.METHOD_NOT_ALLOWED, "use " + allowed + " here"));
  }

  /**
   * Answers a failed request. Client faults ({@link TetherException}, bad parameters) are answered
   * and not logged; the server's own failures are logged through {@link FailureLog} (one stack
   * trace, then rate-limited lines) and answered 503 when memory ran out (retrying later can
   * succeed), else 500.
   */
  void fail(Response response, Callback callback, Throwable failure) {
    if (failure instanceof TetherException e) {
      send(response, callback, e.code().httpStatus(), ErrorBody.of(e));
    } else if (failure instanceof IllegalArgumentException e) {
      send(response, callback, ErrorCode.INVALID_ARGUMENT.httpStatus(), ErrorBody.of(ErrorCode.INVALID_ARGUMENT, e.getMessage()));
    } else if (failure instanceof StoreUnavailableException e) {
      // NATS unreachable or a stream leader election under way: retry later, not a server bug.
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      send(response, callback, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE, e.getMessage()));
    } else if (failure instanceof OutOfMemoryError) {
      failures.log("out of memory answering a request", failure);
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      send(response, callback, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE, "the server is out of memory; retry later"));
    } else {
      // The log has the detail (once, then rate-limited); the answer names nothing of the server's
      // insides: no exception class, no path.
      failures.log("request failed", failure);
      send(response, callback, ErrorCode.INTERNAL.httpStatus(), ErrorBody.of(ErrorCode.INTERNAL,
          "the server failed to answer this request; its log has the details"));
    }
  }

  /** The code {@link #fail} answers {@code failure} with. */
  static ErrorCode codeOf(Throwable failure) {
    if (failure instanceof TetherException e) {
      return e.code();
    }
    if (failure instanceof IllegalArgumentException) {
      return ErrorCode.INVALID_ARGUMENT;
    }
    if (failure instanceof StoreUnavailableException || failure instanceof OutOfMemoryError) {
      return ErrorCode.UNAVAILABLE;
    }
    return ErrorCode.INTERNAL;
  }

  static boolean send(Response response, Callback callback, int status, byte[] body) {
    write(response, status, body, callback);
    return true;
  }

  static void write(Response response, int status, byte[] body, Callback written) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), written);
  }

  static void write(Response response, int status, AnswerBody body, Callback written) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length());
    SlicedWrite.write(response, true, body, written);
  }

  static Throwable unwrap(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
