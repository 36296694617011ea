package dev.tether.media.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.json.TetherJson;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reading and writing the media files (the registry file, the attachment manifest) with the tether
 * modules' one Jackson configuration ({@link TetherJson}: strict duplicate detection, bounded
 * nesting and numbers, no input echoed in errors). Files are read into plain maps and lists ({@link #readTree}) and checked field by field
 * by their owners, so no type is ever chosen by the input. Thread-safe.
 */
public final class MediaJson {

  private static final JsonFactory FACTORY = TetherJson.factory();

  private MediaJson() {}

  /** A JSON file that is not valid, with a sentence saying where and why. */
  public static final class InvalidJsonException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidJsonException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  public static JsonGenerator generator(OutputStream out) throws IOException {
    return FACTORY.createGenerator(out).useDefaultPrettyPrinter();
  }

  /**
   * One JSON value as {@code Map<String,Object>} (insertion-ordered), {@code List<Object>},
   * String, Long, Double, Boolean or null; a number too large for a long is a Double. Trailing
   * content after the value is an error.
   */
  public static Object readTree(byte[] bytes) throws InvalidJsonException {
    try (JsonParser p = FACTORY.createParser(bytes)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new InvalidJsonException("the file is empty", null);
      }
      Object value = readValue(p);
      if (p.nextToken() != null) {
        throw new InvalidJsonException("unexpected content after the JSON value at byte "
            + p.currentTokenLocation().getByteOffset(), null);
      }
      return value;
    } catch (JsonProcessingException e) {
      long at = e.getLocation() == null ? -1 : e.getLocation().getByteOffset();
      throw new InvalidJsonException("not valid JSON: " + e.getOriginalMessage()
          + (at >= 0 ? " (at byte " + at + ")" : ""), e);
    } catch (IOException e) {
      throw new InvalidJsonException("not valid JSON: " + e.getMessage(), e);
    }
  }

  private static Object readValue(JsonParser p) throws IOException {
    switch (p.currentToken()) {
      case START_OBJECT: {
        Map<String, Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          map.put(name, readValue(p));
        }
        return map;
      }
      case START_ARRAY: {
        List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(readValue(p));
        }
        return list;
      }
      case VALUE_STRING:
        return p.getText();
      case VALUE_NUMBER_INT:
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? (Object) p.getDoubleValue() : (Object) p.getLongValue();
      case VALUE_NUMBER_FLOAT:
        return p.getDoubleValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw new JsonParseProblem(p, "unexpected token " + p.currentToken());
    }
  }

  private static final class JsonParseProblem extends JsonProcessingException {
    private static final long serialVersionUID = 1L;

    JsonParseProblem(JsonParser p, String message) {
      super(message, p.currentTokenLocation());
    }
  }
}
