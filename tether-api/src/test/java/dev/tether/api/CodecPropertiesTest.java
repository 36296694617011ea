package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.tether.api.testing.RandomJson;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Properties of the codec over generated input: whatever the bytes, reading yields a frame or a
 * {@link TetherException}, never another exception and never a hang; frames that read write
 * back to themselves; the wire limit holds at its exact boundary.
 *
 * <p>The properties are QuickTheories properties over {@link RandomJson} generators: a failure
 * is shrunk and reported with its input (hex and text) and the seed. Each runs a fixed number of
 * examples from a fixed seed, so a run is reproducible and the coverage counts below are stable.
 * The timeout only guards against hangs; it asserts no speed.
 */
class CodecPropertiesTest {
  private static final int TRIES = 1000;
  private static final Duration HANG_GUARD = Duration.ofSeconds(60);
  private static final FrameCodec CODEC = FrameCodec.standard();

  /** Checks the property on {@code TRIES} generated inputs; returns how many ended in each outcome. */
  private static int[] forAll(long seed, Gen<byte[]> inputs) {
    int[] outcomes = new int[3];
    assertTimeoutPreemptively(HANG_GUARD, () -> qt().withExamples(TRIES).withFixedSeed(seed)
        .forAll(inputs)
        .checkAssert(input -> {
          try {
            outcomes[readsToFrameOrTetherException(input)]++;
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        }));
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
    forAll(1_000_000L, RandomJson.gen(r -> r.bytes(200)));
  }

  @Test
  void randomJsonValues_readToFrameOrTetherException() {
    forAll(2_000_000L, RandomJson.gen(r -> RandomJson.utf8(r.value(5))));
  }

  @Test
  void randomFrames_readToFrameOrTetherException() {
    int[] outcomes = forAll(3_000_000L, RandomJson.gen(r -> RandomJson.utf8(r.frame())));
    // The generator must reach deep: many inputs read to frames, many of those to typed views.
    assertTrue(outcomes[1] + outcomes[2] > TRIES / 5, "frames read: " + Arrays.toString(outcomes));
    assertTrue(outcomes[2] > TRIES / 10, "views read: " + Arrays.toString(outcomes));
  }

  @Test
  void mutatedFrames_readToFrameOrTetherException() {
    forAll(4_000_000L, RandomJson.gen(r -> r.mutate(RandomJson.utf8(r.frame()))));
  }

  @Test
  void framesInOtherUnicodeEncodings_areRejectedAsMalformed() {
    String json = "{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"hi\"},\"x\":[1]}";
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
    // A limit, a frame within 3 bytes of it either way (never below the 18-byte minimum frame),
    // and an endless stream served in chunks of a random size.
    assertTimeoutPreemptively(HANG_GUARD, () -> qt().withExamples(TRIES).withFixedSeed(5_000_000L)
        .forAll(integers().between(18, 5017), integers().between(-3, 3), integers().between(1, 9000))
        .checkAssert((limit, offset, chunk) -> {
          int size = Math.max(18, limit + offset);
          FrameCodec codec = FrameCodec.withLimits(Limits.builder().maxFrameBytes(limit).build());
          byte[] frame = FrameCodecTest.frameOfSize(size);
          String at = "limit " + limit + ", size " + size;
          try {
            if (size <= limit) {
              assertEquals("a", codec.read(frame).type(), at);
              assertEquals("a", codec.read(new ByteArrayInputStream(frame)).type(), at);
            } else {
              assertEquals(ErrorCode.FRAME_TOO_LARGE, assertThrows(TetherException.class, () -> codec.read(frame), at).code());
              assertEquals(ErrorCode.FRAME_TOO_LARGE,
                  assertThrows(TetherException.class, () -> codec.read(new ByteArrayInputStream(frame)), at).code());
            }
          } catch (Exception e) {
            throw new AssertionError(at, e);
          }
          FrameCodecTest.EndlessCountingStream endless = new FrameCodecTest.EndlessCountingStream(chunk);
          assertThrows(TetherException.class, () -> codec.read(endless), at + ", chunk " + chunk);
          assertEquals(limit + 1L, endless.served, at + ", chunk " + chunk);
        }));
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
