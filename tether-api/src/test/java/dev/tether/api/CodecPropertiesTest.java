package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Properties of the codec over generated input: whatever the bytes, reading yields a frame or a
 * {@link TetherException}, never another exception and never a hang; frames that read write
 * back to themselves; the wire limit holds at its exact boundary.
 *
 * <p>Each property runs a fixed number of seeded tries (the seed is in every failure message,
 * so a failure reproduces). The timeout only guards against hangs; it asserts no speed.
 * (Seeded JUnit loops rather than jqwik: jqwik 1.10.1 asks AI agents not to use it, and these
 * tests were written by one. Each loop is one property with a fixed seed range; it maps onto a
 * jqwik {@code @Property} with the same generator if the project decides otherwise.)
 */
class CodecPropertiesTest {
  private static final int TRIES = 1000;
  private static final Duration HANG_GUARD = Duration.ofSeconds(60);
  private static final FrameCodec CODEC = FrameCodec.standard();

  /** Runs {@code property} on {@code TRIES} generated inputs, reporting the seed and input of a failure. */
  private static int[] forAll(long baseSeed, Function<RandomJson, byte[]> generator) {
    int[] outcomes = new int[3];
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      for (int i = 0; i < TRIES; i++) {
        long seed = baseSeed + i;
        byte[] input = generator.apply(new RandomJson(seed));
        try {
          outcomes[readsToFrameOrTetherException(input)]++;
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError("seed " + seed + ", input (hex) " + HexFormat.of().formatHex(input)
              + "\n  as text: " + new String(input, StandardCharsets.UTF_8), e);
        }
      }
    });
    return outcomes;
  }

  /** The property: a frame (which also round-trips and has a view or a TetherException) or a TetherException. */
  static int readsToFrameOrTetherException(byte[] input) throws Exception {
    Frame frame;
    try {
      frame = CODEC.read(input);
    } catch (TetherException e) {
      TetherException fromStream = assertThrows(TetherException.class, () -> CODEC.read(new ByteArrayInputStream(input)));
      assertEquals(e.code(), fromStream.code(), "byte[] and stream reads disagree");
      return 0;
    }
    assertEquals(frame, CODEC.read(new ByteArrayInputStream(input)), "byte[] and stream reads disagree");
    byte[] written = CODEC.write(frame);
    assertEquals(frame, CODEC.read(written), "write then read changed the frame");
    Payload view;
    try {
      view = frame.payloadView();
    } catch (TetherException e) {
      return 1;
    }
    Frame canonical = frame.toBuilder().payload(view).build();
    assertEquals(view, canonical.payloadView(), "the canonical payload reads to a different view");
    assertEquals(canonical, CODEC.read(CODEC.write(canonical)));
    return 2;
  }

  @Test
  void randomBytes_readToFrameOrTetherException() {
    forAll(1_000_000L, r -> r.bytes(200));
  }

  @Test
  void randomJsonValues_readToFrameOrTetherException() {
    forAll(2_000_000L, r -> RandomJson.utf8(r.value(5)));
  }

  @Test
  void randomFrames_readToFrameOrTetherException() {
    int[] outcomes = forAll(3_000_000L, r -> RandomJson.utf8(r.frame()));
    // The generator must reach deep: many inputs read to frames, many of those to typed views.
    assertTrue(outcomes[1] + outcomes[2] > TRIES / 5, "frames read: " + java.util.Arrays.toString(outcomes));
    assertTrue(outcomes[2] > TRIES / 10, "views read: " + java.util.Arrays.toString(outcomes));
  }

  @Test
  void mutatedFrames_readToFrameOrTetherException() {
    forAll(4_000_000L, r -> r.mutate(RandomJson.utf8(r.frame())));
  }

  @Test
  void framesInOtherUnicodeEncodings_areRejectedAsMalformed() {
    String json = "{\"type\":\"user.message\",\"payload\":{\"text\":\"hi\"},\"x\":[1]}";
    for (String charset : new String[] {"UTF-16BE", "UTF-16LE", "UTF-16", "UTF-32BE", "UTF-32LE"}) {
      byte[] input = json.getBytes(java.nio.charset.Charset.forName(charset));
      TetherException e = assertThrows(TetherException.class, () -> CODEC.read(input), charset);
      assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), charset);
      assertEquals(ErrorCode.MALFORMED_FRAME,
          assertThrows(TetherException.class, () -> CODEC.read(new ByteArrayInputStream(input)), charset).code());
    }
  }

  @Test
  void wireLimit_acceptsUpToTheLimitAndRejectsAbove_forRandomLimits() {
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      for (int i = 0; i < TRIES; i++) {
        RandomJson r = new RandomJson(5_000_000L + i);
        int limit = 12 + r.random().nextInt(5000);
        int size = Math.max(12, limit - 3 + r.random().nextInt(7));
        FrameCodec codec = FrameCodec.withLimits(Limits.builder().maxFrameBytes(limit).build());
        byte[] frame = FrameCodecTest.frameOfSize(size);
        FrameCodecTest.EndlessCountingStream endless = new FrameCodecTest.EndlessCountingStream(1 + r.random().nextInt(9000));
        String at = "limit " + limit + ", size " + size;
        if (size <= limit) {
          assertEquals("a", codec.read(frame).type(), at);
          assertEquals("a", codec.read(new ByteArrayInputStream(frame)).type(), at);
        } else {
          assertEquals(ErrorCode.FRAME_TOO_LARGE, assertThrows(TetherException.class, () -> codec.read(frame), at).code());
          assertEquals(ErrorCode.FRAME_TOO_LARGE,
              assertThrows(TetherException.class, () -> codec.read(new ByteArrayInputStream(frame)), at).code());
        }
        assertThrows(TetherException.class, () -> codec.read(endless));
        assertEquals(limit + 1L, endless.served, at);
      }
    });
  }

  /** The protocol's 28 MiB: one buffer of 28 MiB + 1 bytes, read through streams of each length. */
  @Test
  void defaultWireLimit_isExactly28MiB() throws Exception {
    int max = Limits.MAX_FRAME_BYTES;
    assertEquals(28 * 1024 * 1024, max);
    byte[] buffer = FrameCodecTest.frameOfSize(max + 1);
    for (int size : new int[] {max - 1, max}) {
      assertEquals("a", CODEC.read(new ByteArrayInputStream(buffer, 0, size)).type(), "size " + size);
    }
    TetherException e = assertThrows(TetherException.class, () -> CODEC.read(new ByteArrayInputStream(buffer)));
    assertEquals(ErrorCode.FRAME_TOO_LARGE, e.code());
    assertEquals(ErrorCode.FRAME_TOO_LARGE, assertThrows(TetherException.class, () -> CODEC.read(buffer)).code());
    byte[] exact = Arrays.copyOf(buffer, max);
    assertEquals("a", CODEC.read(exact).type());
    FrameCodecTest.EndlessCountingStream endless = new FrameCodecTest.EndlessCountingStream(1 << 20);
    assertThrows(TetherException.class, () -> CODEC.read(endless));
    assertEquals(max + 1L, endless.served);
  }

  @Test
  void seedCorpusOfTheFuzzTest_satisfiesTheProperty() throws Exception {
    // The Jazzer seeds double as fixed regression cases for this property.
    for (String seed : new String[] {"user_message.json", "delta_with_images.json", "unknown_fields.json", "utf16.bin"}) {
      try (var in = getClass().getResourceAsStream("FrameCodecFuzzTestInputs/read/" + seed)) {
        if (in == null) {
          fail("missing seed " + seed);
        }
        readsToFrameOrTetherException(in.readAllBytes());
      }
    }
  }
}
