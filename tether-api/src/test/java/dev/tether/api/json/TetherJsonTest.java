package dev.tether.api.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.RawJson;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class TetherJsonTest {
  @Test
  void parser_readsThePayloadInPlace_andReadStringTakesPlainAndEscapedStrings() throws Exception {
    RawJson json = RawJson.of("{\"a\":\"iVBORw0KGgo=\",\"b\":\"x\\/y\",\"c\":\"é\"}");
    try (JsonParser p = TetherJson.parser(json)) {
      assertEquals(JsonToken.START_OBJECT, p.nextToken());
      assertEquals("a", p.nextFieldName());
      p.nextToken();
      assertEquals("iVBORw0KGgo=", TetherJson.readString(p));
      assertEquals(JsonToken.FIELD_NAME, p.currentToken());
      assertEquals("b", p.currentName());
      p.nextToken();
      assertEquals("x/y", TetherJson.readString(p));
      assertEquals("c", p.currentName());
      p.nextToken();
      assertEquals("é", TetherJson.readString(p));
      assertEquals(JsonToken.END_OBJECT, p.currentToken());
    }
  }

  @Test
  void readString_refusesAParserThatIsNotOnAString() throws Exception {
    try (JsonParser p = TetherJson.parser(RawJson.of("[1]"))) {
      p.nextToken();
      assertThrows(IllegalStateException.class, () -> TetherJson.readString(p));
    }
  }

  @Test
  void decodePlainBase64_decodesInPlace_leavesEscapedStringsToTheParser_andRefusesBadBase64() throws Exception {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    String b64 = Base64.getEncoder().encodeToString(png);
    try (JsonParser p = TetherJson.parser(RawJson.of("[\"" + b64 + "\",\"iVBOR\\/w\",\"not base64!\"]"))) {
      p.nextToken();
      p.nextToken();
      assertArrayEquals(png, TetherJson.decodePlainBase64(p));
      p.nextToken();
      assertNull(TetherJson.decodePlainBase64(p));
      assertEquals("iVBOR/w", p.getText());
      p.nextToken();
      assertThrows(IllegalArgumentException.class, () -> TetherJson.decodePlainBase64(p));
    }
  }

  @Test
  void write_makesOneValue_andRefusesNoneTwoOrAnOpenOne() throws Exception {
    RawJson written = TetherJson.write(g -> {
      g.writeStartObject();
      g.writeStringField("text", "hi");
      g.writeEndObject();
    });
    assertEquals(RawJson.of("{\"text\":\"hi\"}"), written);
    assertThrows(IllegalStateException.class, () -> TetherJson.write(g -> { }));
    assertThrows(IllegalStateException.class, () -> TetherJson.write(g -> {
      g.writeNumber(1);
      g.writeNumber(2);
    }));
    assertThrows(IllegalStateException.class, () -> TetherJson.write(JsonGenerator::writeStartArray));
  }

}
