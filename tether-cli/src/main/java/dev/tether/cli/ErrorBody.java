package dev.tether.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JSON error body of the HTTP API: {@code {"error":{"code":..,"message":..,"image_index":..}}}.
 * Validation failures carry their {@link ErrorCode} name; HTTP-level failures use the codes below.
 */
final class ErrorBody {
  static final String NOT_FOUND = "NOT_FOUND";
  static final String METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED";
  static final String UNAUTHORIZED = "UNAUTHORIZED";
  static final String INVALID_PARAMETER = "INVALID_PARAMETER";
  static final String SHUTTING_DOWN = "SHUTTING_DOWN";
  static final String INTERNAL = "INTERNAL";
  static final String BAD_REQUEST = "BAD_REQUEST";
  static final String URI_TOO_LONG = "URI_TOO_LONG";
  static final String HEADERS_TOO_LARGE = "HEADERS_TOO_LARGE";
  static final String UNSUPPORTED_CONTENT_ENCODING = "UNSUPPORTED_CONTENT_ENCODING";
  static final String NOT_IMPLEMENTED = "NOT_IMPLEMENTED";
  static final String UNAVAILABLE = "UNAVAILABLE";
  static final String CONFLICT = "CONFLICT";

  private static final JsonFactory JSON = new JsonFactory();

  private ErrorBody() {}

  /**
   * The HTTP status for a {@link TetherException}: 413 for the size codes, 507 when the store's
   * byte budget is used up, 503 at the instance cap, 400 for the rest.
   */
  static int status(ErrorCode code) {
    return switch (code) {
      case FRAME_TOO_LARGE, IMAGE_TOO_LARGE, FRAME_IMAGES_TOO_LARGE -> 413;
      case STORE_FULL -> 507;
      case TOO_MANY_INSTANCES -> 503;
      case INSTANCE_NOT_FOUND, BLOB_NOT_FOUND -> 404;
      default -> 400;
    };
  }

  /**
   * The code for an HTTP status the server answers without a more specific code (the errors Jetty
   * raises itself, say): the one table from status to code for HTTP-level failures.
   */
  static String codeFor(int status) {
    return switch (status) {
      case 401 -> UNAUTHORIZED;
      case 404 -> NOT_FOUND;
      case 405 -> METHOD_NOT_ALLOWED;
      case 409 -> CONFLICT;
      case 413 -> ErrorCode.FRAME_TOO_LARGE.name();
      case 414 -> URI_TOO_LONG;
      case 415 -> UNSUPPORTED_CONTENT_ENCODING;
      case 431 -> HEADERS_TOO_LARGE;
      case 501 -> NOT_IMPLEMENTED;
      case 503 -> UNAVAILABLE;
      default -> status >= 500 ? INTERNAL : BAD_REQUEST;
    };
  }

  /** The body for {@code status} with Jetty's {@code reason} (or a generic sentence when there is none). */
  static byte[] forStatus(int status, String reason) {
    String code = codeFor(status);
    String sentence = switch (code) {
      case URI_TOO_LONG -> "the request URI is too long";
      case HEADERS_TOO_LARGE -> "the request headers are too large";
      case NOT_FOUND -> "no such endpoint";
      case INTERNAL -> "the server failed to answer this request";
      default -> "the HTTP request is malformed";
    };
    boolean generic = reason == null || reason.isBlank() || reason.equalsIgnoreCase(org.eclipse.jetty.http.HttpStatus.getMessage(status));
    return of(code, generic ? sentence : sentence + ": " + reason);
  }

  static byte[] of(TetherException e) {
    return of(e.code().name(), e.getMessage(), e.imageIndex().isPresent() ? e.imageIndex().getAsInt() : -1);
  }

  static byte[] of(String code, String message) {
    return of(code, message, -1);
  }

  static byte[] of(String code, String message, int imageIndex) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeObjectFieldStart("error");
      g.writeStringField("code", code);
      g.writeStringField("message", message == null ? code : message);
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
