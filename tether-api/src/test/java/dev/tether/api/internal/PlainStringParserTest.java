package dev.tether.api.internal;

import dev.tether.api.json.TetherJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Differential: whatever the input, reading strings through {@link PlainStringParser}'s one-scan
 * skip gives exactly what Jackson's own parser gives (tokens, texts, locations, and the same
 * exception with the same message), for each way tether reads image strings.
 */
class PlainStringParserTest {
  static final JsonFactory FAST = TetherJson.factory();
  static final JsonFactory PLAIN = TetherJson.newFactory();
  private static final String BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";

  /** How the walk reads a string value: as McpReadResult, as RawStrings.value, as PayloadJson. */
  enum Mode { TEXT, VALUE, SKIP }

  @Test
  void sharedFactory_keepsTheConfigurationAndBuildsTheFastParser() throws IOException {
    assertTrue(FAST.isEnabled(StreamReadFeature.STRICT_DUPLICATE_DETECTION));
    assertFalse(FAST.isEnabled(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION));
    assertEquals(TetherJson.MAX_NESTING_DEPTH, FAST.streamReadConstraints().getMaxNestingDepth());
    assertEquals(1000, FAST.streamReadConstraints().getMaxNumberLength());
    assertEquals(Integer.MAX_VALUE, FAST.streamReadConstraints().getMaxStringLength());
    byte[] json = "{\"data\":\"QUJD\"}".getBytes(StandardCharsets.US_ASCII);
    try (JsonParser p = FAST.createParser(json)) {
      assertInstanceOf(PlainStringParser.class, p);
    }
    assertInstanceOf(PlainStringFactory.class, FAST.copy());
  }

  @Test
  void fastParser_isOnlyBuiltWhereJacksonCertainlyReadsUtf8WithoutBom() {
    assertTrue(PlainStringFactory.plainUtf8(bytes("{\"a\":1}"), 0, 7));
    assertFalse(PlainStringFactory.plainUtf8(bytes("{}"), 0, 2));
    assertFalse(PlainStringFactory.plainUtf8(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'}, 0, 5));
    assertFalse(PlainStringFactory.plainUtf8(new byte[] {(byte) 0xFE, (byte) 0xFF, 0, '{'}, 0, 4));
    assertFalse(PlainStringFactory.plainUtf8(new byte[] {'{', 0, '}', 0}, 0, 4));
  }

  @Test
  void skipPlainString_movesOnlyOverPrintableAsciiUpToTheQuote() throws IOException {
    for (String s : new String[] {"QUJD", "", "a b~\u007f"}) {
      assertSkips(s, true);
    }
    for (String s : new String[] {"QU\\nJD", "QU\u0001JD", "QU\tJD", "\u00e9", "QU\nJD"}) {
      assertSkips(s, false);
    }
  }

  private static void assertSkips(String s, boolean skips) throws IOException {
    byte[] json = ("[\"" + s + "\",1]").getBytes(StandardCharsets.UTF_8);
    try (PlainStringParser p = (PlainStringParser) FAST.createParser(json)) {
      p.nextToken();
      p.nextToken();
      int end = p.skipPlainString();
      assertEquals(skips ? 2 + s.length() : -1, end, s);
      assertEquals(-1, p.skipPlainString(), "only once: " + s); // already past, or not plain
    }
  }

  @Test
  void takePlainString_leavesTheStringAsTheParsersText() throws IOException {
    byte[] json = bytes("{\"data\":\"QUJD\",\"n\":2}");
    try (PlainStringParser p = (PlainStringParser) FAST.createParser(json)) {
      p.nextToken();
      p.nextToken();
      p.nextToken();
      assertEquals("QUJD", p.takePlainString());
      assertEquals("QUJD", p.getText());
      assertEquals(JsonToken.FIELD_NAME, p.nextToken());
      assertEquals("n", p.currentName());
    }
  }

  @Test
  void randomDocuments_readTheSameThroughTheFastSkipAsThroughJackson() throws IOException {
    Random random = new Random(24);
    for (int round = 0; round < 6_000; round++) {
      byte[] doc = document(random);
      int cut = random.nextInt(6) == 0 ? random.nextInt(doc.length + 1) : doc.length; // truncated input
      int prefix = random.nextInt(3);
      byte[] framed = new byte[prefix + doc.length + 2];
      for (int i = 0; i < framed.length; i++) {
        framed[i] = (byte) '"'; // bytes around the parsed range must never be read
      }
      System.arraycopy(doc, 0, framed, prefix, cut);
      Mode mode = Mode.values()[random.nextInt(3)];
      boolean names = random.nextBoolean();
      List<String> plain = walk(PLAIN, framed, prefix, cut, mode, names);
      List<String> fast = walk(FAST, framed, prefix, cut, mode, names);
      assertEquals(plain, fast, "round " + round + " " + mode + " names=" + names + ": "
          + new String(framed, prefix, cut, StandardCharsets.ISO_8859_1));
    }
  }

  static List<String> walk(JsonFactory f, byte[] bytes, int offset, int length, Mode mode, boolean names) {
    List<String> out = new ArrayList<>();
    int limit = offset + length;
    try (JsonParser p = f.createParser(bytes, offset, length)) {
      JsonToken t = next(p, names);
      while (t != null) {
        out.add(t + " at " + where(p.currentTokenLocation()));
        if (t == JsonToken.VALUE_STRING) {
          int start = offset + (int) p.currentTokenLocation().getByteOffset() + 1;
          if (mode == Mode.TEXT) {
            out.add("text " + RawStrings.text(p, bytes, offset, limit));
            t = p.currentToken();
            out.add("now " + t + " at " + where(p.currentLocation()));
            continue;
          } else if (mode == Mode.VALUE) {
            out.add("value " + RawStrings.value(p, bytes, offset, limit));
          } else {
            int end = p instanceof PlainStringParser q ? q.skipPlainString() : -1;
            if (end < 0) {
              end = RawStrings.plainEnd(bytes, start, limit);
            }
            out.add(end < limit && bytes[end] == '"'
                ? "raw " + new String(bytes, start, end - start, StandardCharsets.ISO_8859_1)
                : "parsed " + p.getText());
          }
        } else if (t.isScalarValue() || t == JsonToken.FIELD_NAME) {
          out.add("text " + p.getText());
        }
        t = next(p, names);
        out.add("now at " + where(p.currentLocation()));
      }
    } catch (IOException | RuntimeException e) {
      out.add(e.getClass().getName() + ": " + e.getMessage());
    }
    return out;
  }

  private static JsonToken next(JsonParser p, boolean names) throws IOException {
    if (!names) {
      return p.nextToken();
    }
    return p.nextFieldName() != null ? JsonToken.FIELD_NAME : p.currentToken();
  }

  private static String where(JsonLocation l) {
    return l.getByteOffset() + "/" + l.getLineNr() + ":" + l.getColumnNr();
  }

  private static byte[] document(Random random) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (random.nextInt(30) == 0) {
      out.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    }
    int shape = random.nextInt(4);
    if (shape == 0) {
      string(random, out);
    } else {
      out.writeBytes(bytes(random.nextBoolean() ? "{\"images\":[{\"media_type\":\"image/png\",\"data\":" : "{\"data\":"));
      string(random, out);
      out.writeBytes(bytes(",\"n\":"));
      out.writeBytes(bytes(random.nextBoolean() ? "[1,\"x\"," : "[\n "));
      string(random, out);
      out.writeBytes(bytes(random.nextInt(10) == 0 ? "]" : "]}"));
      if (shape == 1) {
        out.writeBytes(bytes("]}"));
      }
    }
    if (random.nextInt(10) == 0) {
      out.writeBytes(bytes(" \"trailing\""));
    }
    return out.toByteArray();
  }

  /** A string value: mostly base64, sometimes long, with the bytes a sloppy skip would get wrong. */
  private static void string(Random random, ByteArrayOutputStream out) {
    out.write('"');
    int length = random.nextInt(8) == 0 ? random.nextInt(5000) : random.nextInt(40);
    int oddness = 1 + random.nextInt(200);
    for (int i = 0; i < length; i++) {
      if (random.nextInt(oddness) != 0) {
        out.write(BASE64.charAt(random.nextInt(BASE64.length())));
        continue;
      }
      switch (random.nextInt(9)) {
        case 0 -> out.write(random.nextInt(0x20)); // a raw control character, even a line break
        case 1 -> out.write(random.nextBoolean() ? 0x1F : 0x20);
        case 2 -> out.write(random.nextBoolean() ? 0x7F : 0x21);
        case 3 -> out.writeBytes(bytes(random.nextBoolean() ? "\\\"" : "\\u00e9"));
        case 4 -> out.write('\\');
        case 5 -> out.writeBytes("\u00e9\u20ac".getBytes(StandardCharsets.UTF_8));
        case 6 -> out.write(0x80 + random.nextInt(0x80)); // a high byte, often not UTF-8
        case 7 -> out.write('"'); // ends the string early: what follows is junk
        default -> out.write(random.nextBoolean() ? '!' : '#'); // one off the quote
      }
    }
    out.write('"');
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }
}
