package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameCodecTest {
  private final FrameCodec codec = FrameCodec.standard();

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void read_keepsPayloadAndUnknownFieldsAsTheirExactBytes() throws Exception {
    String json = "{\"v\":1,\"type\":\"user.message\",\"zz\":  [1, {\"a\":\"b\"}] ,\"session\":{\"channel\":\"host\",\"id\":\"d\"},"
        + "\"payload\":{ \"text\" : \"hi\", \"x\": 2 },\"n\":12,\"s\":\"str\",\"t\":true}";
    for (Frame frame : List.of(codec.read(utf8(json)), codec.read(new ByteArrayInputStream(utf8("  " + json + " \n"))))) {
      assertEquals("{ \"text\" : \"hi\", \"x\": 2 }", frame.payload().toString());
      assertEquals("[1, {\"a\":\"b\"}]", frame.extensions().get("zz").toString());
      assertEquals("12", frame.extensions().get("n").toString());
      assertEquals("\"str\"", frame.extensions().get("s").toString());
      assertEquals("true", frame.extensions().get("t").toString());
      assertEquals(new SessionKey("host", "d"), frame.session().orElseThrow());
      Payload.UserMessage m = (Payload.UserMessage) frame.payloadView();
      assertEquals("hi", m.text());
      assertEquals("2", m.extra().get("x").toString());
    }
  }

  @Test
  void write_roundTripsUnknownFields() {
    String json = "{\"v\":1,\"type\":\"x.y\",\"seq\":3,\"payload\":{\"a\":[1,2]},\"extra\":{\"k\":null}}";
    Frame frame = codec.read(utf8(json));
    assertEquals(json, new String(codec.write(frame), StandardCharsets.UTF_8));
  }

  @Test
  void read_rejectsTrailingGarbage() {
    TetherException e = assertThrows(TetherException.class, () -> codec.read(utf8("{\"type\":\"a\"} x")));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
  }
}
