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
  static final String STORE_UNAVAILABLE = "STORE_UNAVAILABLE";

  private static final JsonFactory JSON = new JsonFactory();

  private ErrorBody() {}

  /** The HTTP status for a validation failure: 413 for the size codes, 400 for the rest. */
  static int status(ErrorCode code) {
    return switch (code) {
      case FRAME_TOO_LARGE, IMAGE_TOO_LARGE, FRAME_IMAGES_TOO_LARGE -> 413;
      default -> 400;
    };
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
