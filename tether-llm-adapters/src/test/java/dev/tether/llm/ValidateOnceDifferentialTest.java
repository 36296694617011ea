package dev.tether.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.tether.api.Conversation;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Image;
import dev.tether.api.ImageData;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.Payload;
import dev.tether.api.Role;
import dev.tether.api.TetherException;
import dev.tether.api.Turn;
import dev.tether.images.FrameValidator;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Validate once: the same wire frames, valid and hostile, go through the old path (validated at
 * ingress, then read by the codec, so the adapter checks every image in full) and the new one
 * ({@link FrameValidator#read}: the images carry the validator's proof and the adapter skips the
 * checks already made). Both must accept and reject the same frames with the same codes, rules,
 * image indexes and messages, and write byte-identical requests.
 */
class ValidateOnceDifferentialTest {
  private static final FrameValidator VALIDATOR = FrameValidator.withLimits(
      Limits.builder().maxImageBytes(6_000).maxFrameImageBytes(20_000).build());

  /** The ways an image can be built, valid and hostile. */
  enum Kind { PNG, JPEG, GIF, WEBP, FORGED_TYPE, TRUNCATED, BAD_SYMBOL, WRONG_MIME, DATA_URI, UNPADDED, OVERSIZED, EMPTY }

  @Test
  void sameVerdictsAndRequestsOnGeneratedFrames() {
    qt().withExamples(400).withFixedSeed(37L).forAll(longs().all()).checkAssert(seed -> {
      Random random = new Random(seed);
      byte[] wire = frame(random);
      ProviderProfile profile = ProfilePropertiesTest.smallProfile(random);
      int relabel = random.nextInt(4) == 0 ? random.nextInt(4) : -1;
      MediaType relabelAs = MediaType.values()[random.nextInt(MediaType.values().length)];
      String old = outcome(oldPath(wire), profile, relabel, relabelAs, false);
      String now = outcome(newPath(wire), profile, relabel, relabelAs, true);
      assertEquals(old, now, "seed " + seed + ": " + new String(wire, 0, Math.min(wire.length, 300), StandardCharsets.UTF_8));
    });
  }

  @Test
  void eachHostileKindIsRejectedWithTheSameCodeOnBothPaths() {
    ProviderProfile profile = ProviderProfile.anthropic();
    for (Kind kind : Kind.values()) {
      byte[] wire = frame(List.of(kind), new Random(kind.ordinal()));
      String old = outcome(oldPath(wire), profile, -1, null, false);
      String now = outcome(newPath(wire), profile, -1, null, true);
      assertEquals(old, now, kind.name());
      boolean valid = kind == Kind.PNG || kind == Kind.JPEG || kind == Kind.GIF || kind == Kind.WEBP || kind == Kind.UNPADDED;
      assertEquals(valid, old.startsWith("request") || old.startsWith("rule"), kind + ": " + old);
    }
  }

  @Test
  void aRelabelledVerifiedImageIsCheckedInFull() {
    byte[] wire = frame(List.of(Kind.PNG), new Random(1));
    Image verified = ((Payload.UserMessage) newPath(wire).frame().payloadView()).images().get(0);
    assertTrue(verified.isVerified());
    assertTrue(ImageData.of(verified).isVerifiedAs(MediaType.PNG));
    assertFalse(ImageData.of(verified).isVerifiedAs(MediaType.JPEG));
    Conversation relabelled = Fixtures.userTurn(new Part.Image(MediaType.JPEG, ImageData.of(verified)));
    ImageRuleException e = assertThrows(ImageRuleException.class,
        () -> LlmRequest.prepare(ProviderProfile.anthropic(), relabelled));
    assertEquals(ImageRule.TYPE_MISMATCH, e.rule());
  }

  /** tether_read gives the same content for a proven frame (its data not scanned again) as for the codec's. */
  @Test
  void tetherReadGivesTheSameContentForProvenFrames() {
    qt().withExamples(200).withFixedSeed(38L).forAll(longs().all()).checkAssert(seed -> {
      Random random = new Random(seed);
      String wire = new String(frame(random), StandardCharsets.UTF_8).replace("user.message", "assistant.done");
      if (random.nextBoolean()) {
        wire = wire.replace("/", "\\/"); // escaped slashes: valid JSON, the same base64, no proven span
      }
      if (random.nextBoolean()) {
        wire = wire.replace("\"text\":\"hi\"", "\"text\":\"hi\",\"x\":{\"data\":\"AAAA\"}");
      }
      byte[] bytes = wire.getBytes(StandardCharsets.UTF_8);
      Ingress old = oldPath(bytes);
      Ingress now = newPath(bytes);
      assertEquals(old.rejected(), now.rejected(), "seed " + seed);
      if (old.frame() != null) {
        assertEquals(new McpReadResult(List.of(old.frame()), 1, false).toContent(),
            new McpReadResult(List.of(now.frame()), 1, false).toContent(), "seed " + seed);
      }
    });
  }

  /** What the ingress gave: a frame, or the validator's rejection. */
  record Ingress(Frame frame, String rejected) {}

  private static Ingress oldPath(byte[] wire) {
    try {
      VALIDATOR.validate(wire);
      return new Ingress(FrameCodec.withLimits(VALIDATOR.limits()).read(wire), null);
    } catch (TetherException e) {
      return new Ingress(null, e.code() + " " + e.getMessage());
    }
  }

  private static Ingress newPath(byte[] wire) {
    try {
      return new Ingress(VALIDATOR.read(new ByteArrayInputStream(wire)), null);
    } catch (TetherException e) {
      return new Ingress(null, e.code() + " " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String outcome(Ingress in, ProviderProfile profile, int relabel, MediaType relabelAs, boolean proofs) {
    if (in.frame() == null) {
      return "ingress " + in.rejected();
    }
    List<Image> images = ((Payload.UserMessage) in.frame().payloadView()).images();
    List<Part> parts = new ArrayList<>();
    parts.add(new Part.Text("look"));
    for (int i = 0; i < images.size(); i++) {
      Image image = images.get(i);
      assertEquals(proofs, image.isVerified(), "image " + i + " proof");
      parts.add(new Part.Image(i == relabel ? relabelAs : image.mediaType(), ImageData.of(image)));
    }
    Conversation conversation = new Conversation("sys", List.of(new Turn(Role.USER, parts)));
    try {
      byte[] request = LlmRequest.prepare(profile, conversation, RequestOptions.defaults().withModel("m")).toByteArray();
      return "request " + Arrays.hashCode(request) + " " + request.length;
    } catch (ImageRuleException e) {
      return "rule " + e.rule() + " " + e.imageIndex() + " " + e.errorCode() + " " + e.getMessage();
    }
  }

  private static byte[] frame(Random random) {
    int count = random.nextInt(5);
    List<Kind> kinds = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      // mostly valid images, so that the adapter's own rules are reached
      kinds.add(random.nextInt(3) == 0 ? Kind.values()[random.nextInt(Kind.values().length)]
          : Kind.values()[random.nextInt(4)]);
    }
    return frame(kinds, random);
  }

  private static byte[] frame(List<Kind> kinds, Random random) {
    StringBuilder json = new StringBuilder("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"d\"},"
        + "\"payload\":{\"text\":\"hi\",\"images\":[");
    for (int i = 0; i < kinds.size(); i++) {
      json.append(i == 0 ? "" : ",").append(image(kinds.get(i), random));
    }
    return json.append("]}}").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String image(Kind kind, Random random) {
    int w = 1 + random.nextInt(3000);
    int h = 1 + random.nextInt(3000);
    byte[] png = Fixtures.pngHeader(w, h, 33 + random.nextInt(3000));
    for (int i = 33; i < png.length; i++) {
      png[i] = (byte) random.nextInt();
    }
    String b64 = Base64.getEncoder().encodeToString(png);
    return switch (kind) {
      case PNG -> obj("image/png", b64);
      case JPEG -> obj("image/jpeg", Fixtures.JPEG_2X1);
      case GIF -> obj("image/gif", Base64.getEncoder().encodeToString(Fixtures.gifOf(1 + random.nextInt(40), 1 + random.nextInt(40))));
      case WEBP -> obj("image/webp", Base64.getEncoder().encodeToString(Fixtures.webp(w, h)));
      case FORGED_TYPE -> obj("image/png", Fixtures.JPEG_2X1);
      case TRUNCATED -> obj("image/png", truncated(b64.replace("=", "")));
      case BAD_SYMBOL -> obj("image/png", b64.substring(0, 20) + "*" + b64.substring(21));
      case WRONG_MIME -> obj("image/bmp", b64);
      case DATA_URI -> obj("image/png", "data:image/png;base64," + b64);
      case UNPADDED -> obj("image/png", b64.replace("=", ""));
      case OVERSIZED -> obj("image/png", Base64.getEncoder().encodeToString(Fixtures.pngHeader(w, h, 6_001 + random.nextInt(2000))));
      case EMPTY -> obj("image/png", "");
    };
  }

  /** Cut to a length that no base64 can have (4n + 1 symbols). */
  private static String truncated(String unpadded) {
    int n = unpadded.length() - 2;
    return unpadded.substring(0, n - ((n - 1) % 4));
  }

  private static String obj(String mediaType, String data) {
    return "{\"media_type\":\"" + mediaType + "\",\"data\":\"" + data + "\"}";
  }
}
