package dev.tether.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The structured fields of a log line, passed to {@link System.Logger} as the last
 * parameter ({@code LOG.log(Level.DEBUG, "accepted {0}", type, LogFields.of(...))}): a log
 * formatter that understands them (the {@code tether} commands' {@code --log-format json}) writes
 * them as fields; any other ignores a parameter its message does not name. The names are the
 * wire's: {@code instance}, {@code session} ({@code channel:id}), {@code msg_id}, {@code type},
 * {@code seq}, {@code code}. A frame's {@code msg_id} is what follows one ask through every log: a
 * {@code user.message} and the {@code assistant.delta}s, {@code assistant.done} and errors that
 * answer it carry the same one. An
 * agent or bridge built on the SDK logs with the same names. Stateless.
 */
public final class LogFields {
  private LogFields() {}

  /** The fields of {@code frame} on {@code instance} (either may be null): what it is and which ask it belongs to. */
  public static Map<String, String> of(String instance, Frame frame) {
    Map<String, String> fields = new LinkedHashMap<>(8);
    put(fields, "instance", instance);
    if (frame != null) {
      put(fields, "session", frame.session().map(SessionKey::toString).orElse(null));
      put(fields, "msg_id", frame.msgId().orElse(null));
      put(fields, "type", frame.type());
      if (frame.seq() > 0) {
        fields.put("seq", Long.toString(frame.seq()));
      }
    }
    return Collections.unmodifiableMap(fields);
  }

  /** Fields from name-value pairs; a pair whose value is null is left out. */
  public static Map<String, String> of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("names and values come in pairs");
    }
    Map<String, String> fields = new LinkedHashMap<>(namesAndValues.length);
    for (int i = 0; i < namesAndValues.length; i += 2) {
      put(fields, namesAndValues[i], namesAndValues[i + 1]);
    }
    return Collections.unmodifiableMap(fields);
  }

  private static void put(Map<String, String> fields, String name, String value) {
    if (value != null) {
      fields.put(name, value);
    }
  }
}
