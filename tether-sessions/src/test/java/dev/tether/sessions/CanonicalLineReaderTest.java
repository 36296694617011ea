package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.longsAcrossMagnitudes;
import static dev.tether.api.testing.QtGens.optional;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The fast reading of session lines ({@link CanonicalLineReader}): every line the codec writes is
 * read by it, equal to what was written; anything else is declined or read exactly as the strict
 * codec reads it (never accepted where the strict codec refuses).
 */
class CanonicalLineReaderTest {
  private static final String KEY = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.png";
  private static final String GOOD = "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}";

  /** The differential check, shared with the fuzz test. */
  static void assertDeclinesOrAgrees(byte[] line) {
    SessionTurn fast = new CanonicalLineReader().read(line, 0, line.length);
    if (fast == null) {
      return;
    }
    SessionTurn strict;
    try {
      strict = SessionLineCodec.read(line, 0, line.length);
    } catch (SessionLineException e) {
      throw new AssertionError("the fast reading accepted a line the strict codec refuses ("
          + e.getMessage() + "): " + new String(line, StandardCharsets.ISO_8859_1), e);
    }
    assertEquals(strict, fast, () -> new String(line, StandardCharsets.ISO_8859_1));
  }

  private static SessionTurn fast(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    return new CanonicalLineReader().read(bytes, 0, bytes.length);
  }

  @Test
  void everyLineTheCodecWrites_isReadByTheFastPath_andEqualsTheTurn() {
    qt().withFixedSeed(24L).withExamples(2000).forAll(turns()).checkAssert(turn -> {
      byte[] line = SessionLineCodec.write(turn);
      SessionTurn read = new CanonicalLineReader().read(line, 0, line.length);
      assertNotNull(read, () -> "declined a line the codec wrote: " + new String(line, StandardCharsets.UTF_8));
      assertEquals(turn, read);
      assertDeclinesOrAgrees(line);
    });
  }

  @Test
  void mutatedLinesTheCodecWrote_areDeclinedOrReadAsTheStrictCodecReadsThem() {
    // Deterministic fuzzing from a fixed seed: every kind of line, with bytes replaced, inserted,
    // deleted or repeated at random places, using the bytes that matter to JSON and UTF-8.
    byte[] interesting = {'"', '\\', 'u', '0', '9', 'a', 'F', '{', '}', '[', ']', ',', ':', ' ', '\t', '-', '.', 'e',
        '/', 'n', 't', 'f', 0, 0x1f, 0x7f, (byte) 0x80, (byte) 0xbf, (byte) 0xc0, (byte) 0xc2, (byte) 0xe0,
        (byte) 0xed, (byte) 0xf0, (byte) 0xf4, (byte) 0xf5, (byte) 0xff};
    Random random = new Random(24);
    List<byte[]> lines = new ArrayList<>();
    for (SessionTurn turn : sampleTurns()) {
      lines.add(SessionLineCodec.write(turn));
    }
    int accepted = 0;
    for (int round = 0; round < 60_000; round++) {
      byte[] line = lines.get(random.nextInt(lines.size()));
      for (int m = 1 + random.nextInt(3); m > 0; m--) {
        line = mutate(line, random, interesting);
      }
      assertDeclinesOrAgrees(line);
      if (new CanonicalLineReader().read(line, 0, line.length) != null) {
        accepted++;
      }
    }
    // the mutations must also reach lines that are still canonical (text changes), or the check proves little
    assertTrue(accepted > 1000, "accepted " + accepted);
  }

  private static byte[] mutate(byte[] line, Random random, byte[] interesting) {
    int at = random.nextInt(line.length + 1);
    byte b = random.nextBoolean() ? interesting[random.nextInt(interesting.length)] : (byte) random.nextInt(256);
    switch (random.nextInt(4)) {
      case 0: // replace
        if (at < line.length) {
          byte[] copy = line.clone();
          copy[at] = b;
          return copy;
        }
        return line;
      case 1: { // insert
        byte[] copy = new byte[line.length + 1];
        System.arraycopy(line, 0, copy, 0, at);
        copy[at] = b;
        System.arraycopy(line, at, copy, at + 1, line.length - at);
        return copy;
      }
      case 2: { // delete
        if (at == line.length) {
          return line;
        }
        byte[] copy = new byte[line.length - 1];
        System.arraycopy(line, 0, copy, 0, at);
        System.arraycopy(line, at + 1, copy, at, line.length - at - 1);
        return copy;
      }
      default: { // repeat a slice (duplicate keys, parts, escapes)
        int to = Math.min(line.length, at + 1 + random.nextInt(40));
        byte[] slice = Arrays.copyOfRange(line, at, to);
        byte[] copy = new byte[line.length + slice.length];
        System.arraycopy(line, 0, copy, 0, to);
        System.arraycopy(slice, 0, copy, to, slice.length);
        System.arraycopy(line, to, copy, to + slice.length, line.length - to);
        return copy;
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "{}", "[]", "null", "{", GOOD + " ", " " + GOOD, GOOD + "\r", GOOD + "{}",
      "{ \"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"ts\":\"2026-01-01T00:00:00Z\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"system\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[]}",
      "{\"role\":\"user\",\"ts\":\"2026-02-30T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00+01:00\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"text\":\"y\"}]}",
      "{\"role\":\"user\",\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"thinking\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"a\u0001b\"}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"a\\xb\"}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"a\\u12\"}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"image\",\"key\":\"" + KEY + "\",\"media_type\":\"image/gif\",\"size\":1}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"image\",\"key\":\"" + KEY + "\",\"media_type\":\"image/png\",\"size\":-1}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"image\",\"key\":\"" + KEY + "\",\"media_type\":\"image/png\",\"size\":01}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"image\",\"key\":\"" + KEY + "\",\"media_type\":\"image/png\",\"size\":1.0}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"image\",\"key\":\"" + KEY + "\",\"media_type\":\"image/png\",\"size\":99999999999999999999999}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"image\",\"key\":\"../../etc/passwd.png\",\"media_type\":\"image/png\",\"size\":1}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"image\",\"key\":\"" + "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD.png" + "\",\"media_type\":\"image/png\",\"size\":1}]}",
      "{\"role\":\"assistant\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"b\",\"input\":{\"k\":1,\"k\":2}}]}",
      "{\"role\":\"assistant\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"b\",\"input\":{ \"k\":1}}]}",
      "{\"role\":\"assistant\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"b\",\"input\":{\"k\":1.5}}]}",
      "{\"role\":\"assistant\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"b\",\"input\":{\"k\":-0}}]}",
      "{\"role\":\"assistant\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"b\",\"input\":\"\\u0041\"}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"is_error\":false,\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"b\",\"input\":{}}]}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"is_error\":0,\"content\":[]}]}",
  })
  void hostileOrForeignLines_areDeclined(String line) {
    assertNull(fast(line), line);
    assertDeclinesOrAgrees(line.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void invalidUtf8AndNul_areDeclined() {
    byte[] good = GOOD.getBytes(StandardCharsets.US_ASCII);
    int x = GOOD.indexOf("\"x\"") + 1;
    byte[][] bad = {{(byte) 0xc0, (byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
        {(byte) 0xe2, (byte) 0x82}, {(byte) 0x80}, {(byte) 0xff}, {0}, {(byte) 0xf0, (byte) 0x8f, (byte) 0xbf, (byte) 0xbf}};
    for (byte[] b : bad) {
      byte[] line = new byte[good.length + b.length - 1];
      System.arraycopy(good, 0, line, 0, x);
      System.arraycopy(b, 0, line, x, b.length);
      System.arraycopy(good, x + 1, line, x + b.length, good.length - x - 1);
      assertNull(new CanonicalLineReader().read(line, 0, line.length), Arrays.toString(b));
      assertDeclinesOrAgrees(line);
    }
  }

  @Test
  void deepToolInput_isLeftToTheStrictReading_atTheDepthLimitAndBeyond() {
    for (int depth : new int[] {CanonicalJson.MAX_RAW_DEPTH, CanonicalJson.MAX_RAW_DEPTH + 1, 300}) {
      String input = "[".repeat(depth) + "]".repeat(depth);
      String line = "{\"role\":\"assistant\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\","
          + "\"name\":\"b\",\"input\":" + input + "}]}";
      SessionTurn turn = fast(line);
      if (depth <= CanonicalJson.MAX_RAW_DEPTH) {
        assertNotNull(turn);
      } else {
        assertNull(turn);
      }
      assertDeclinesOrAgrees(line.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void longText_atTheLineLimit_isReadWhole() {
    String text = "\u00e9\"\\\n".repeat(50_000) + "\ud83d\ude00";
    SessionTurn turn = SessionTurn.user(Instant.parse("2026-01-01T00:00:00.123456789Z"), new SessionPart.Text(text));
    byte[] line = SessionLineCodec.write(turn);
    assertEquals(turn, new CanonicalLineReader().read(line, 0, line.length));
  }

  /** One turn of each shape, with texts that need escapes and multi-byte UTF-8. */
  static List<SessionTurn> sampleTurns() {
    Instant ts = Instant.parse("2026-01-01T00:00:00.5Z");
    BlobKey key = BlobKey.of(KEY);
    return List.of(
        new SessionTurn(Role.USER, ts, java.util.Optional.of("Al\u00efce \"A\""), List.of(
            new SessionPart.Text("[Al\u00efce]: what is \\this\\?\n\t\u20ac \ud83d\ude00 \u0001"), new SessionPart.ImageRef(key, 48_213))),
        SessionTurn.assistant(ts, new SessionPart.Text("Let me check."),
            new SessionPart.ToolUse("tu1", "bash", RawJson.of("{\"cmd\":\"ls -la\",\"n\":[1,-2,true,null,{\"a\":\"\\\"q\\n\"}]}"))),
        SessionTurn.user(ts, new SessionPart.ToolResult("tu1",
            List.of(new SessionPart.Text("total 8\n"), new SessionPart.ImageRef(BlobKey.of(KEY.replace(".png", ".webp")), 0)), true)),
        SessionTurn.user(ts, new SessionPart.ToolResult("tu2", List.of(), false)));
  }

  /** Any UTF-16 chars, surrogates included, and the characters JSON escapes, often. */
  private static Gen<String> anyString(int maxLength) {
    return Generate.oneOf(strings(chars('\u0000', '\uffff'), 0, maxLength),
        strings(charsOf("\"\\/\n\r\t\b\f\u0000\u001f\u007f\u00e9\u20ac\ud83d\ude00 aZ09"), 0, maxLength));
  }

  /** JSON values as the generator writes them (tool inputs are canonical JSON). */
  private static Gen<String> jsonValues() {
    Gen<String> scalars = Generate.oneOf(
        longs().between(-1_000_000_000_000L, 1_000_000_000_000L).map((Long v) -> String.valueOf(v)),
        arbitrary().pick(List.of("true", "false", "null", "0", "\"\"", "\"a\\\"b\\\\c\\n\"", "\"\u00e9\"")));
    Gen<String> objects = lists().of(scalars).ofSizeBetween(0, 4).map((List<String> values) -> {
      StringBuilder sb = new StringBuilder("{");
      for (int i = 0; i < values.size(); i++) {
        sb.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(values.get(i));
      }
      return sb.append('}').toString();
    });
    Gen<String> arrays = lists().of(Generate.oneOf(scalars, objects)).ofSizeBetween(0, 3).map((List<String> v) -> "[" + String.join(",", v) + "]");
    return Generate.oneOf(scalars, objects, arrays);
  }

  private static Gen<SessionTurn> turns() {
    Gen<SessionPart> text = anyString(40).map((String s) -> new SessionPart.Text(s));
    Gen<SessionPart> image = strings(charsOf("0123456789abcdef"), 64, 64).zip(
        arbitrary().enumValues(MediaType.class), longsAcrossMagnitudes(0, 999_999_999_999_999_999L),
        (hex, type, size) -> new SessionPart.ImageRef(new BlobKey(hex, type), size));
    Gen<SessionPart> use = anyString(8).zip(anyString(8), jsonValues(),
        (id, name, input) -> new SessionPart.ToolUse(id, name, RawJson.of(input)));
    Gen<SessionPart> result = anyString(8).zip(lists().of(Generate.oneOf(text, image)).ofSizeBetween(0, 3),
        booleans().all(), SessionPart.ToolResult::new);
    Gen<Instant> instants = longs().between(0, 253_402_300_799L).zip(integers().between(0, 999_999_999),
        booleans().all(), (seconds, nanos, whole) -> Instant.ofEpochSecond(seconds, whole ? 0 : nanos));
    return arbitrary().enumValues(Role.class).zip(instants, optional(anyString(10), 5),
        lists().of(Generate.oneOf(text, image, use, result)).ofSizeBetween(1, 4), SessionTurn::new);
  }
}
