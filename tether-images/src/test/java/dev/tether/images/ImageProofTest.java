package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Image;
import dev.tether.api.ImageData;
import dev.tether.api.ImageProof;
import dev.tether.api.InlineAnswer;
import dev.tether.api.InlineImage;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.TetherException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The validator's proof ({@link ImageProof}): only a validated frame's images carry it, it cannot
 * be moved to other text or another type, and the checks that skip work for it (the chat egress's
 * {@link Images#check(InlineImage, Limits)}) give the same verdicts as without it.
 */
class ImageProofTest {
  private static byte[] png(int size) {
    return SampleImages.ofSize(MediaType.PNG, Math.max(size, SampleImages.small(MediaType.PNG).length));
  }

  private static byte[] frame(String type, String... imagesJson) {
    return ("{\"v\":1,\"type\":\"" + type + "\",\"payload\":{\"text\":\"t\",\"images\":["
        + String.join(",", imagesJson) + "]}}").getBytes(StandardCharsets.UTF_8);
  }

  private static String image(String mediaType, String data) {
    return "{\"media_type\":\"" + mediaType + "\",\"data\":\"" + data + "\"}";
  }

  private static List<Image> images(Frame frame) {
    return ((Payload.AssistantDone) frame.payloadView()).images();
  }

  @Test
  void onlyValidatedFramesCarryProofs() throws IOException {
    byte[] wire = frame("assistant.done", image("image/png", Base64.getEncoder().encodeToString(png(100))));
    assertFalse(images(FrameCodec.standard().read(wire)).get(0).isVerified());
    assertTrue(images(FrameValidator.standard().read(new ByteArrayInputStream(wire))).get(0).isVerified());
    assertTrue(images(FrameValidator.standard().read(wire)).get(0).isVerified());
    assertTrue(images(FrameValidator.standard().readOwned(wire.clone(), 0, wire.length)).get(0).isVerified());
    Frame read = FrameCodec.standard().read(wire);
    FrameValidator.standard().validate(read);
    assertTrue(images(read).get(0).isVerified(), "validate(Frame) proves the payload it judged");
    Frame copy = Frame.builder("assistant.done").payload(RawJson.of(read.payload().toString())).build();
    assertFalse(images(copy).get(0).isVerified(), "the same JSON in another RawJson is not proven");
  }

  @Test
  void aPayloadWithLeadingWhitespaceReadsTheSameWhenProven() {
    String data = Base64.getEncoder().encodeToString(png(300));
    String json = " \n {\"x\":\"\",\"text\":\"t\",\"images\":[" + image("image/png", data) + "," + image("image/png", data) + "]}";
    Frame frame = Frame.builder("assistant.done").payload(RawJson.of(json)).build();
    List<Image> before = images(frame);
    FrameValidator.standard().validate(frame);
    List<Image> after = images(frame);
    assertTrue(after.get(1).isVerified());
    assertEquals(before, after);
    assertEquals(data, after.get(1).data());
  }

  @Test
  void aProofCannotBeMovedToOtherDataOrAnotherType() {
    byte[] wire = frame("assistant.done", image("image/png", Base64.getEncoder().encodeToString(png(100))));
    Image proven = images(FrameValidator.standard().read(wire)).get(0);
    ImageProof proof = proven.proof();
    assertThrows(IllegalArgumentException.class, () -> new Image(MediaType.PNG, "AAAA", proof));
    assertThrows(IllegalArgumentException.class, () -> new Image(MediaType.JPEG, proven.data(), proof));
    String equalText = new String(proven.data().toCharArray());
    assertThrows(IllegalArgumentException.class, () -> new Image(MediaType.PNG, equalText, proof),
        "a proof covers the one String it was made for");
    assertFalse(ImageData.ofBase64(proven.data()).isVerifiedAs(MediaType.PNG));
    assertTrue(ImageData.of(proven).isVerifiedAs(MediaType.PNG));
    assertFalse(ImageData.of(proven).isVerifiedAs(MediaType.GIF));
    assertEquals(new Image(MediaType.PNG, proven.data()), proven, "the proof is not part of the value");
  }

  @Test
  void unjudgedTypesGiveNoProofToAFrameThatReusesTheirPayload() {
    // x.custom passes untouched, images and all; reusing its payload in an answer proves nothing
    byte[] wire = frame("x.custom", image("image/png", "not*base64"));
    Frame custom = FrameValidator.standard().read(wire);
    Frame answer = Frame.builder("assistant.done").payload(custom.payload()).build();
    assertFalse(images(answer).get(0).isVerified());
    InlineImage inline = InlineAnswer.read(answer).images().get(0);
    TetherException e = assertThrows(TetherException.class, () -> Images.check(inline, Limits.defaults()));
    assertEquals("INVALID_BASE64", e.code().name());
  }

  /** The chat egress's check of a proven image gives the full check's verdict under any limits. */
  @Test
  void inlineChecksGiveTheSameVerdictsWithAndWithoutProof() {
    qt().withExamples(300).withFixedSeed(24L).forAll(longs().all()).checkAssert(seed -> {
      Random random = new Random(seed);
      byte[] bytes = png(random.nextInt(3000));
      String b64 = Base64.getEncoder().encodeToString(bytes);
      if (random.nextBoolean()) {
        b64 = b64.replace("=", "");
      }
      byte[] wire = frame("assistant.done", image("image/png", b64));
      Limits limits = Limits.builder().maxImageBytes(1 + random.nextInt(3200)).build();
      InlineImage plain = InlineAnswer.read(FrameCodec.standard().read(wire)).images().get(0);
      InlineImage proven = InlineAnswer.read(FrameValidator.standard().read(wire)).images().get(0);
      assertTrue(proven.toImage().isVerified());
      assertEquals(verdict(plain, limits), verdict(proven, limits), "seed " + seed);
    });
  }

  private static String verdict(InlineImage image, Limits limits) {
    try {
      Images.check(image, limits);
      return "ok";
    } catch (TetherException e) {
      return e.code() + ": " + e.getMessage();
    }
  }
}
