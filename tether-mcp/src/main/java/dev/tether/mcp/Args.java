package dev.tether.mcp;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strict reading of one tool call's arguments, as the SDK decoded them from JSON (strings, numbers,
 * booleans, lists, maps, nulls). Every problem is a {@link ToolError} with code
 * {@code INVALID_ARGUMENT} and a sentence naming the argument, what was expected and what came.
 * An explicit JSON {@code null} counts as absent. Not thread-safe; one instance per call.
 */
final class Args {
  private final String tool;
  private final Map<String, Object> values;

  private Args(String tool, Map<String, Object> values) {
    this.tool = tool;
    this.values = values;
  }

  /** The arguments of a call to {@code tool}, failing on any name not in {@code allowed}. */
  static Args of(String tool, Map<String, Object> arguments, Set<String> allowed) {
    Map<String, Object> values = arguments == null ? Map.of() : arguments;
    Set<String> unknown = new TreeSet<>(values.keySet());
    unknown.removeAll(allowed);
    if (!unknown.isEmpty()) {
      throw ToolError.invalidArguments(tool + " does not take " + quoted(unknown)
          + "; its arguments are " + quoted(new TreeSet<>(allowed)));
    }
    return new Args(tool, values);
  }

  String requireString(String name) {
    return optString(name).orElseThrow(() -> missing(name, "a string"));
  }

  /** A required string that must not be empty or blank. */
  String requireNonBlank(String name) {
    String value = requireString(name);
    if (value.isBlank()) {
      throw ToolError.invalidArguments(tool + ": " + name + " must not be empty");
    }
    return value;
  }

  Optional<String> optString(String name) {
    Object value = values.get(name);
    if (value == null) {
      return Optional.empty();
    }
    if (value instanceof String s) {
      return Optional.of(s);
    }
    throw wrongType(name, "a string", value);
  }

  /** An optional whole number in {@code [min, max]}; integral floats such as 5.0 are accepted. */
  Optional<Long> optLong(String name, long min, long max) {
    Object value = values.get(name);
    if (value == null) {
      return Optional.empty();
    }
    long n = toLong(name, value);
    if (n < min || n > max) {
      throw ToolError.invalidArguments(tool + ": " + name + " must be between " + min + " and " + max
          + " but was " + n);
    }
    return Optional.of(n);
  }

  /** An optional array of strings. */
  Optional<List<String>> optStringList(String name) {
    Optional<List<Object>> list = optList(name);
    if (list.isEmpty()) {
      return Optional.empty();
    }
    List<String> strings = new ArrayList<>(list.get().size());
    for (int i = 0; i < list.get().size(); i++) {
      Object item = list.get().get(i);
      if (!(item instanceof String s)) {
        throw wrongType(name + "[" + i + "]", "a string", item);
      }
      strings.add(s);
    }
    return Optional.of(strings);
  }

  @SuppressWarnings("unchecked")
  Optional<List<Object>> optList(String name) {
    Object value = values.get(name);
    if (value == null) {
      return Optional.empty();
    }
    if (value instanceof List<?> list) {
      return Optional.of((List<Object>) list);
    }
    throw wrongType(name, "an array", value);
  }

  private long toLong(String name, Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigInteger big) {
      throw ToolError.invalidArguments(tool + ": " + name + " is out of range: " + big);
    }
    if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
      double d = ((Number) value).doubleValue();
      if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 0x1p53) {
        return (long) d;
      }
    }
    throw wrongType(name, "a whole number", value);
  }

  private ToolError missing(String name, String expected) {
    return ToolError.invalidArguments(tool + " needs " + name + " (" + expected + ")");
  }

  ToolError wrongType(String name, String expected, Object value) {
    return ToolError.invalidArguments(tool + ": " + name + " must be " + expected + " but was " + describe(value));
  }

  static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return "the string \"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    if (value instanceof Number n) {
      return "the number " + n;
    }
    if (value instanceof List<?>) {
      return "an array";
    }
    if (value instanceof Map<?, ?>) {
      return "an object";
    }
    return value.getClass().getSimpleName();
  }

  private static String quoted(Set<String> names) {
    StringBuilder sb = new StringBuilder();
    for (String name : names) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append('\'').append(name).append('\'');
    }
    return sb.toString();
  }
}
