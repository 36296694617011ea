package dev.tether.media;

import dev.tether.media.internal.MediaFiles;
import dev.tether.media.internal.MediaJson;
import dev.tether.media.internal.MediaText;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed access to one JSON object of a media file (registry or manifest), turning every wrong
 * type or missing field into a {@link MediaFormatException} that names the file, the entry and
 * the field. Not thread-safe; one instance per object read.
 */
final class MediaFileFields {
  private final String where;
  private final Map<?, ?> object;

  private MediaFileFields(String where, Map<?, ?> object) {
    this.where = where;
    this.object = object;
  }

  /**
   * The bytes of the media file at {@code path}, which {@code name} describes in messages.
   *
   * @throws MediaFormatException when the file holds more than {@code maxBytes} bytes
   */
  static byte[] readFile(Path path, String name, long maxBytes) throws IOException {
    try {
      return MediaFiles.readBounded(path, maxBytes);
    } catch (MediaFiles.FileTooLargeException e) {
      throw new MediaFormatException(name + " " + path + " is larger than " + maxBytes + " bytes", e);
    }
  }

  /**
   * The root object of a media file's JSON {@code bytes}, after checking that its
   * {@code "version"} is {@code version}.
   *
   * @throws MediaFormatException when the bytes are not JSON, the root is not an object, or the
   *     version is missing, of the wrong type or another number
   */
  static MediaFileFields versionedRoot(byte[] bytes, String name, long version) throws MediaFormatException {
    Object tree;
    try {
      tree = MediaJson.readTree(bytes);
    } catch (MediaJson.InvalidJsonException e) {
      throw new MediaFormatException(name + " is " + e.getMessage(), e);
    }
    MediaFileFields root = of(name, tree);
    long found = root.number("version");
    if (found != version) {
      throw new MediaFormatException(name + " has version " + found + "; this reader understands version " + version);
    }
    return root;
  }

  static MediaFileFields of(String where, Object value) throws MediaFormatException {
    if (!(value instanceof Map<?, ?> map)) {
      throw new MediaFormatException(where + " must be a JSON object but is " + typeOf(value));
    }
    return new MediaFileFields(where, map);
  }

  String where() {
    return where;
  }

  String string(String field) throws MediaFormatException {
    Object v = require(field);
    if (!(v instanceof String s)) {
      throw wrongType(field, "a string", v);
    }
    return s;
  }

  String optionalString(String field, String fallback) throws MediaFormatException {
    return object.get(field) == null ? fallback : string(field);
  }

  long number(String field) throws MediaFormatException {
    Object v = require(field);
    if (!(v instanceof Long n)) {
      throw wrongType(field, "an integer", v);
    }
    return n;
  }

  long optionalNumber(String field, long fallback) throws MediaFormatException {
    return object.get(field) == null ? fallback : number(field);
  }

  Instant instant(String field) throws MediaFormatException {
    String text = string(field);
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new MediaFormatException(where + ": " + field + " must be an ISO-8601 UTC instant but is '"
          + MediaText.excerpt(text) + "'");
    }
  }

  List<?> list(String field) throws MediaFormatException {
    Object v = require(field);
    if (!(v instanceof List<?> list)) {
      throw wrongType(field, "an array", v);
    }
    return list;
  }

  Map<String, String> stringMap(String field) throws MediaFormatException {
    Object v = object.get(field);
    if (v == null) {
      return Map.of();
    }
    if (!(v instanceof Map<?, ?> map)) {
      throw wrongType(field, "an object", v);
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getValue() instanceof String s)) {
        throw new MediaFormatException(where + ": " + field + "." + MediaText.excerpt((String) e.getKey())
            + " must be a string but is " + typeOf(e.getValue()));
      }
      out.put((String) e.getKey(), s);
    }
    return out;
  }

  MediaFormatException invalid(IllegalArgumentException e) {
    return new MediaFormatException(where + ": " + e.getMessage(), e);
  }

  private Object require(String field) throws MediaFormatException {
    Object v = object.get(field);
    if (v == null) {
      throw new MediaFormatException(where + ": required field '" + field + "' is missing or null");
    }
    return v;
  }

  private MediaFormatException wrongType(String field, String expected, Object v) {
    return new MediaFormatException(where + ": " + field + " must be " + expected + " but is " + typeOf(v));
  }

  static String typeOf(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Map) {
      return "an object";
    }
    if (v instanceof List) {
      return "an array";
    }
    if (v instanceof String) {
      return "a string";
    }
    if (v instanceof Boolean) {
      return "a boolean";
    }
    return "a number";
  }
}
