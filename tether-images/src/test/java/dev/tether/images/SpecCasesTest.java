package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.TetherException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * tether-image-support.md §9, cases 3 to 6, with the protocol's default limits, at the producer
 * entry points (the {@code tether_send} side) and at every consumer entry point. "MB" in the
 * spec is read as 10^6 bytes; the limits are binary (DESIGN.md), so 15 MB and 4 x 8 MB are over
 * them either way.
 */
class SpecCasesTest {
  private static final FrameValidator VALIDATOR = FrameValidator.standard();
  private static final int MB = 1_000_000;

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static void allConsumersReject(byte[] wire, ErrorCode code, int index) throws Exception {
    for (Wire.Consumer entry : Wire.Consumer.values()) {
      TetherException e = entry.outcome(VALIDATOR, wire).orElseThrow(() -> new AssertionError(entry + " accepted"));
      assertEquals(code, e.code(), entry + ": " + e.getMessage());
      assertEquals(index, e.imageIndex().orElse(-1), entry + ": " + e.getMessage());
    }
  }

  @Test
  void case3_a15MbImage_isRejectedEverywhere() throws Exception {
    byte[] bytes = SampleImages.ofSize(MediaType.JPEG, 15 * MB);
    String data = base64(bytes);
    TetherException e = assertThrows(TetherException.class, () -> Images.fromBytes(bytes, MediaType.JPEG));
    assertEquals(ErrorCode.IMAGE_TOO_LARGE, e.code());
    assertEquals(0, e.imageIndex().orElseThrow());
    assertEquals("image 0 is 14.31 MiB (15000000 bytes) decoded; the limit is 10 MiB per image, so resize or recompress it",
        e.getMessage());
    assertEquals(ErrorCode.IMAGE_TOO_LARGE, assertThrows(TetherException.class, () -> Images.of(MediaType.JPEG, data)).code());
    assertEquals(ErrorCode.IMAGE_TOO_LARGE,
        assertThrows(TetherException.class, () -> Images.fromDataUri("data:image/jpeg;base64," + data)).code());
    Image unchecked = new Image(MediaType.JPEG, data);
    Image small = Images.fromBytes(SampleImages.small(MediaType.PNG), MediaType.PNG);
    TetherException second = assertThrows(TetherException.class, () -> VALIDATOR.validateImages(List.of(small, unchecked)));
    assertEquals(ErrorCode.IMAGE_TOO_LARGE, second.code());
    assertEquals(1, second.imageIndex().orElseThrow());

    byte[] wire = FrameCodec.standard().write(Frames.hostUserMessage("default", "analyze", List.of(unchecked)));
    assertTrue(wire.length < Limits.MAX_FRAME_BYTES, "fits the wire, so the image limit is what rejects it");
    allConsumersReject(wire, ErrorCode.IMAGE_TOO_LARGE, 0);
  }

  @Test
  void case4_fourImagesOf8Mb_areRejectedForTheFrameTotal() throws Exception {
    Image eight = Images.fromBytes(SampleImages.ofSize(MediaType.PNG, 8 * MB), MediaType.PNG);
    List<Image> four = Collections.nCopies(4, eight);
    // Producer: every image is within its own limit, together they are not.
    TetherException e = assertThrows(TetherException.class, () -> VALIDATOR.validateImages(four));
    assertEquals(ErrorCode.FRAME_IMAGES_TOO_LARGE, e.code());
    assertTrue(e.imageIndex().isEmpty());
    assertEquals("the images add up to 30.52 MiB (32000000 bytes) decoded; a frame may carry at most 20 MiB of images,"
        + " so send some in another message", e.getMessage());

    // Consumers: on the wire the frame is over MaxFrameBytes (the spec's "exceeds MaxFrameBytes"),
    // which the wire entry points see first; the object entry points see the total.
    byte[] wire = FrameCodec.standard().write(Frames.assistantDone(dev.tether.api.SessionKey.host("default"), "host-1", "", four));
    assertTrue(wire.length > Limits.MAX_FRAME_BYTES);
    for (Wire.Consumer entry : Wire.Consumer.values()) {
      ErrorCode expected = entry.checksWireSize() ? ErrorCode.FRAME_TOO_LARGE : ErrorCode.FRAME_IMAGES_TOO_LARGE;
      assertEquals(expected, entry.rejectCode(VALIDATOR, wire), entry.toString());
    }
    long[] served = {0};
    InputStream counting = new java.io.ByteArrayInputStream(wire) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        int n = super.read(b, off, len);
        served[0] += Math.max(0, n);
        return n;
      }
    };
    assertEquals(ErrorCode.FRAME_TOO_LARGE, assertThrows(TetherException.class, () -> VALIDATOR.read(counting)).code());
    assertEquals(Limits.MAX_FRAME_BYTES + 1L, served[0], "read at most MaxFrameBytes + 1");
  }

  @Test
  void case5_fiveImages_areRejectedForTheCount() throws Exception {
    Image png = Images.fromBytes(SampleImages.small(MediaType.PNG), MediaType.PNG);
    TetherException e = assertThrows(TetherException.class, () -> VALIDATOR.validateImages(Collections.nCopies(5, png)));
    assertEquals(ErrorCode.TOO_MANY_IMAGES, e.code());
    assertEquals("the message has 5 images; at most 4 are allowed per message, so send the rest in another message", e.getMessage());
    byte[] wire = FrameCodec.standard().write(Frames.hostUserMessage("default", "five", Collections.nCopies(5, png)));
    allConsumersReject(wire, ErrorCode.TOO_MANY_IMAGES, -1);
    // Phase 4's "5 x 10 MB": the count is judged before any size.
    Image ten = new Image(MediaType.PNG, base64(SampleImages.ofSize(MediaType.PNG, 10 * MB)));
    assertEquals(ErrorCode.TOO_MANY_IMAGES,
        assertThrows(TetherException.class, () -> VALIDATOR.validateImages(Collections.nCopies(5, ten))).code());
  }

  @Test
  void case6_noImages_isTheTextOnlyFrameAsBefore() throws Exception {
    assertTrue(VALIDATOR.limits().equals(Limits.defaults()));
    VALIDATOR.validateImages(List.of());
    Frame frame = Frames.hostUserMessage("default", "Hello", List.of());
    assertEquals("{\"text\":\"Hello\"}", frame.payload().toString(), "no images field at all");
    byte[] wire = FrameCodec.standard().write(frame);
    for (Wire.Consumer entry : Wire.Consumer.values()) {
      assertTrue(entry.outcome(VALIDATOR, wire).isEmpty(), entry.toString());
    }
    // The pre-image payloads of §2.1 and §2.2 still pass and read as before.
    byte[] before = ("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"telegram\",\"id\":\"1\"},"
        + "\"payload\":{\"text\":\"Hello\",\"user\":{\"id\":\"123\",\"name\":\"Alice\"}}}").getBytes(StandardCharsets.UTF_8);
    Frame read = VALIDATOR.read(before);
    Payload.UserMessage m = (Payload.UserMessage) read.payloadView();
    assertEquals("Hello", m.text());
    assertEquals(List.of(), m.images());
    byte[] done = "{\"v\":1,\"type\":\"assistant.done\",\"payload\":{\"text\":\"Here's the analysis...\"}}".getBytes(StandardCharsets.UTF_8);
    assertEquals(Payload.AssistantDone.of("Here's the analysis...", List.of()), VALIDATOR.read(done).payloadView());
  }
}
