package dev.tether.api;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * Writes a frame as compact JSON. Raw parts (payload, unknown fields) are copied straight from
 * their bytes to the output, never re-encoded and never copied into an intermediate array.
 */
final class FrameWriter {
  private FrameWriter() {}

  static void write(Frame frame, OutputStream out) throws IOException {
    try (JsonGenerator g = JsonSupport.generator(out)) {
      g.writeStartObject();
      g.writeNumberField("v", Frame.VERSION);
      g.writeStringField("type", frame.type());
      if (frame.ts().isPresent()) {
        g.writeStringField("ts", Timestamps.format(frame.ts().get()));
      }
      if (frame.session().isPresent()) {
        SessionKey s = frame.session().get();
        g.writeObjectFieldStart("session");
        g.writeStringField("channel", s.channel());
        g.writeStringField("id", s.id());
        for (Map.Entry<String, RawJson> e : frame.sessionExtensions().entrySet()) {
          writeRawField(g, out, e.getKey(), e.getValue());
        }
        g.writeEndObject();
      }
      if (frame.msgId().isPresent()) {
        g.writeStringField("msg_id", frame.msgId().get());
      }
      if (frame.seq() > 0) {
        g.writeNumberField("seq", frame.seq());
      }
      if (frame.hasPayload()) {
        writeRawField(g, out, "payload", frame.payload());
      }
      for (Map.Entry<String, RawJson> e : frame.extensions().entrySet()) {
        writeRawField(g, out, e.getKey(), e.getValue());
      }
      g.writeEndObject();
    }
  }

  /**
   * Writes {@code "name":} through the generator, then the raw bytes straight to {@code out}.
   * Flushing the generator (which does not flush {@code out}) keeps the two in order.
   */
  static void writeRawField(JsonGenerator g, OutputStream out, String name, RawJson value) throws IOException {
    g.writeFieldName(name);
    g.writeRawValue("");
    g.flush();
    value.writeTo(out);
  }
}
