package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.QueryResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Poll pages and stream lines are built in one buffer of {@link FrameJson#estimate}'s size and
 * handed out without a copy, so the estimate must bound what is written: the egress budget
 * reserves exactly it.
 */
class FrameJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Text with the characters JSON writes longest: controls (six-byte escapes), quotes, non-ASCII. */
  private static String text(Random random, int max) {
    char[] hostile = {'\u0000', '\u001f', '"', '\\', '\u00e9', '\u20ac', '\uffff', 'a'};
    StringBuilder s = new StringBuilder();
    for (int n = random.nextInt(max + 1); n > 0; n--) {
      s.append(hostile[random.nextInt(hostile.length)]);
    }
    return s.toString();
  }

  private static String quoted(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static List<Frame> frames(long seed) {
    Random random = new Random(seed);
    List<Frame> frames = new ArrayList<>();
    for (int i = random.nextInt(4); i >= 0; i--) {
      Frame.Builder b = Frame.builder(random.nextBoolean() ? "assistant.done" : "x." + text(random, 20))
          .payload(RawJson.of("{\"text\":" + quoted(text(random, 300)) + "}"))
          .seq(random.nextBoolean() ? Long.MAX_VALUE : 1 + random.nextInt(1000));
      if (random.nextBoolean()) {
        b.ts(Instant.ofEpochSecond(253402300799L, 999_999_999)); // the longest timestamp
      }
      if (random.nextBoolean()) {
        b.session(new SessionKey(text(random, 40), text(random, 40)));
        for (int e = random.nextInt(3); e > 0; e--) {
          b.sessionExtension("s" + e + text(random, 10), RawJson.of(quoted(text(random, 50))));
        }
      }
      if (random.nextBoolean()) {
        b.msgId(text(random, 64));
      }
      for (int e = random.nextInt(3); e > 0; e--) {
        b.extension("x" + e + text(random, 10), RawJson.of("[" + quoted(text(random, 50)) + ",1]"));
      }
      frames.add(b.build());
    }
    return frames;
  }

  @Test
  void pollPageAndStreamLines_fitTheEstimate_soTheBufferNeverGrowsAndIsWrittenAsItIs() {
    qt().withExamples(500).withFixedSeed(23L).forAll(integers().allPositive()).checkAssert(seed -> {
      List<Frame> frames = frames(seed);
      QueryResult r = new QueryResult(frames, Long.MAX_VALUE, seed % 2 == 0, seed % 3 == 0, Long.MAX_VALUE - 1);
      int estimate = FrameJson.estimate(r);

      ByteBuffer page = FrameJson.pollResult(r);
      assertEquals(estimate, page.capacity(), "the page's buffer grew past the estimate (seed " + seed + ")");
      assertEquals(0, page.position());
      JsonNode parsed = read(page);
      assertEquals(frames.size(), parsed.get("frames").size());
      for (int i = 0; i < frames.size(); i++) {
        assertEquals(frames.get(i), FrameCodec.standard().read(parsed.get("frames").get(i).toString().getBytes(StandardCharsets.UTF_8)));
      }
      assertEquals(Long.MAX_VALUE, parsed.get("next_seq").asLong());

      ByteBuffer lines = FrameJson.streamLines(r);
      assertTrue(lines.capacity() <= estimate, "stream lines outgrew the estimate (seed " + seed + ")");
      String text = new String(lines.array(), lines.position(), lines.remaining(), StandardCharsets.UTF_8);
      assertEquals(frames.size() + (r.gap() ? 1 : 0), text.split("\n").length);
    });
  }

  private static JsonNode read(ByteBuffer b) {
    try {
      return JSON.readTree(b.array(), b.position(), b.remaining());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
