package dev.tether.server.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.server.AuditEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.format.DateTimeFormatter;

/**
 * One {@link AuditEvent} as one line of JSON: {@code {"time","token_id","instance","channel",
 * "session_id","msg_id","type","route","method","status","code","bytes_in","bytes_out"}}, absent
 * values left out, each string cut to {@value #MAX_FIELD} characters (so a line stays under 4 KiB
 * whatever a client sent), newline-terminated. Control characters are JSON-escaped, so no value
 * can start a line of its own. Stateless; thread-safe.
 */
public final class AuditLines {
  static final int MAX_FIELD = 256;

  private AuditLines() {}

  /** Appends the line of {@code e} to {@code out}. */
  public static void write(AuditEvent e, ByteArrayOutputStream out) {
    try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("time", DateTimeFormatter.ISO_INSTANT.format(e.time()));
      field(g, "token_id", e.tokenId());
      field(g, "instance", e.instance());
      field(g, "channel", e.channel());
      field(g, "session_id", e.sessionId());
      field(g, "msg_id", e.msgId());
      field(g, "type", e.type());
      field(g, "route", e.route());
      field(g, "method", e.method());
      g.writeNumberField("status", e.status());
      field(g, "code", e.code());
      g.writeNumberField("bytes_in", e.bytesIn());
      g.writeNumberField("bytes_out", e.bytesOut());
      g.writeEndObject();
    } catch (IOException x) {
      throw new UncheckedIOException(x); // a ByteArrayOutputStream does not fail
    }
    out.write('\n');
  }

  private static void field(JsonGenerator g, String name, String value) throws IOException {
    if (value != null) {
      int end = Math.min(value.length(), MAX_FIELD);
      if (end < value.length() && Character.isHighSurrogate(value.charAt(end - 1))) {
        end--; // never half a pair
      }
      g.writeStringField(name, value.substring(0, end));
    }
  }
}
