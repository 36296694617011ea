package dev.tether.server.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.api.json.TetherJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.eclipse.jetty.http.HttpStatus;

/**
 * The JSON error body of the HTTP API: {@code {"error":{"code":..,"message":..,"image_index":..}}}.
 * Every code is an {@link ErrorCode}, whose {@link ErrorCode#httpStatus()} is the status sent with it.
 */
final class ErrorBody {
  private static final JsonFactory JSON = TetherJson.factory();

  private ErrorBody() {}

  /**
   * The code for an HTTP status the server answers without a more specific code (the errors Jetty
   * raises itself, say).
   */
  static ErrorCode codeFor(int status) {
    return switch (status) {
      case 401 -> ErrorCode.UNAUTHORIZED;
      case 404 -> ErrorCode.NOT_FOUND;
      case 405 -> ErrorCode.METHOD_NOT_ALLOWED;
      case 409 -> ErrorCode.CONFLICT;
      case 413 -> ErrorCode.FRAME_TOO_LARGE;
      case 414 -> ErrorCode.URI_TOO_LONG;
      case 415 -> ErrorCode.UNSUPPORTED_CONTENT_ENCODING;
      case 429 -> ErrorCode.RATE_LIMITED;
      case 431 -> ErrorCode.HEADERS_TOO_LARGE;
      case 501 -> ErrorCode.NOT_IMPLEMENTED;
      case 503 -> ErrorCode.UNAVAILABLE;
      default -> status >= 500 ? ErrorCode.INTERNAL : ErrorCode.BAD_REQUEST;
    };
  }

  /** The body for {@code status} with Jetty's {@code reason} (or a generic sentence when there is none). */
  static byte[] forStatus(int status, String reason) {
    ErrorCode code = codeFor(status);
    String sentence = switch (code) {
      case URI_TOO_LONG -> "the request URI is too long";
      case HEADERS_TOO_LARGE -> "the request headers are too large";
      case NOT_FOUND -> "no such endpoint";
      case INTERNAL -> "the server failed to answer this request";
      default -> "the HTTP request is malformed";
    };
    boolean generic = reason == null || reason.isBlank() || reason.equalsIgnoreCase(HttpStatus.getMessage(status));
    return of(code, generic ? sentence : sentence + ": " + reason);
  }

  static byte[] of(TetherException e) {
    return of(e.code(), e.getMessage(), e.imageIndex().isPresent() ? e.imageIndex().getAsInt() : -1);
  }

  static byte[] of(ErrorCode code, String message) {
    return of(code, message, -1);
  }

  static byte[] of(ErrorCode code, String message, int imageIndex) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeObjectFieldStart("error");
      g.writeStringField("code", code.name());
      g.writeStringField("message", message == null ? code.name() : message);
      if (imageIndex >= 0) {
        g.writeNumberField("image_index", imageIndex);
      }
      g.writeEndObject();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.write('\n');
    return out.toByteArray();
  }
}
