package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.QueryResult;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Poll pages and stream lines: the JSON of their frames, each large payload held as a view of its
 * stored bytes (never copied), and never more bytes than {@link FrameJson#estimate}, which the
 * egress budget reserves.
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
          .payload(RawJson.of("{\"text\":" + quoted(text(random, random.nextInt(4) == 0 ? 30_000 : 300)) + "}"))
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
  void pollPageAndStreamLines_fitTheEstimate_andHoldLargePayloadsAsViews() {
    qt().withExamples(300).withFixedSeed(23L).forAll(integers().allPositive()).checkAssert(seed -> {
      List<Frame> frames = frames(seed);
      QueryResult r = new QueryResult(frames, Long.MAX_VALUE, seed % 2 == 0, seed % 3 == 0, Long.MAX_VALUE - 1);
      long large = frames.stream().mapToLong(f -> f.payload().size()).filter(n -> n >= AnswerBody.SHARE_MIN_BYTES).sum();

      AnswerBody page = FrameJson.pollResult(r);
      byte[] pageBytes = bytes(page);
      assertTrue(pageBytes.length <= FrameJson.estimate(r), "the page outgrew the estimate (seed " + seed + ")");
      assertEquals(large, viewBytes(page), "large payloads are views, the rest copied (seed " + seed + ")");
      JsonNode parsed = read(pageBytes);
      assertEquals(frames.size(), parsed.get("frames").size());
      for (int i = 0; i < frames.size(); i++) {
        assertEquals(frames.get(i), FrameCodec.standard().read(parsed.get("frames").get(i).toString().getBytes(StandardCharsets.UTF_8)));
      }
      assertEquals(Long.MAX_VALUE, parsed.get("next_seq").asLong());
      assertEquals(r.gap(), parsed.has("gap"));

      AnswerBody lines = FrameJson.streamLines(r);
      byte[] lineBytes = bytes(lines);
      assertTrue(lineBytes.length <= FrameJson.estimate(r), "stream lines outgrew the estimate (seed " + seed + ")");
      assertEquals(large, viewBytes(lines));
      String[] split = new String(lineBytes, StandardCharsets.UTF_8).split("\n");
      assertEquals(frames.size() + (r.gap() ? 1 : 0), split.length);
      for (int i = 0; i < frames.size(); i++) {
        assertEquals(frames.get(i), FrameCodec.standard().read(split[i + (r.gap() ? 1 : 0)].getBytes(StandardCharsets.UTF_8)));
      }
    });
  }

  /** The body's bytes, read from duplicates so that the pieces stay as they are; twice, to show that. */
  private static byte[] bytes(AnswerBody body) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int round = 0; round < 2; round++) {
      out.reset();
      for (ByteBuffer b : body.buffers()) {
        ByteBuffer d = b.duplicate();
        byte[] chunk = new byte[d.remaining()];
        d.get(chunk);
        out.write(chunk, 0, chunk.length);
      }
    }
    assertEquals(body.length(), out.size());
    return out.toByteArray();
  }

  private static long viewBytes(AnswerBody body) {
    return body.buffers().stream().filter(ByteBuffer::isReadOnly).mapToLong(ByteBuffer::remaining).sum();
  }

  private static JsonNode read(byte[] b) {
    try {
      return JSON.readTree(b);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The 202 body written directly is byte for byte what the Jackson tree wrote before. */
  @Test
  void accepted_isWhatTheJacksonTreeWrote() {
    qt().withExamples(300).withFixedSeed(37L).forAll(integers().allPositive()).checkAssert(seed -> {
      Random random = new Random(seed);
      String msgId = random.nextInt(10) == 0 ? null : text(random, 40);
      String sessionId = random.nextInt(10) == 0 ? null : text(random, 40);
      long seq = random.nextBoolean() ? Long.MAX_VALUE : random.nextInt(1000);
      ObjectNode n = JSON.createObjectNode();
      n.put("msg_id", msgId);
      n.put("session_id", sessionId);
      n.put("ingress_seq", seq);
      assertEquals(n.toString() + "\n", new String(FrameJson.accepted(msgId, sessionId, seq), StandardCharsets.UTF_8));
    });
  }

  /** A small page is one small piece; a page past a piece is cut into pieces holding the same bytes. */
  @Test
  void answerBody_smallIsOneSmallPiece_largeKeepsItsBytes() throws Exception {
    AnswerBody small = new AnswerBody(300);
    small.write("{\"frames\":[]}".getBytes(StandardCharsets.US_ASCII));
    assertEquals(1, small.buffers().size());
    assertEquals(300, small.buffers().get(0).array().length);

    AnswerBody large = new AnswerBody(300);
    byte[] bytes = new byte[40_000];
    new Random(1).nextBytes(bytes);
    for (int i = 0; i < bytes.length; i += 7) {
      large.write(bytes, i, Math.min(7, bytes.length - i));
    }
    large.write('!');
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    for (ByteBuffer b : large.buffers()) {
      joined.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
    }
    assertEquals(bytes.length + 1, large.length());
    assertEquals(bytes.length + 1, joined.size());
    assertTrue(Arrays.equals(bytes, 0, bytes.length, joined.toByteArray(), 0, bytes.length));
  }
}
