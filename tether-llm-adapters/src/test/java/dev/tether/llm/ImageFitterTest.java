package dev.tether.llm;

import static dev.tether.llm.Fixtures.userTurn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.images.ImageHeaders;
import java.util.List;
import org.junit.jupiter.api.Test;

class ImageFitterTest {
  private static final RequestOptions FIT = RequestOptions.defaults().withFitImages(true);

  @Test
  void pngOverTheSideLimit_isDownscaledAndReported() {
    ProviderProfile profile = ProviderProfile.anthropic().toBuilder().maxDimension(100).build();
    Part.Image big = new Part.Image(MediaType.PNG, ImageData.ofBytes(Fixtures.pngOf(300, 150)));
    LlmRequest request = LlmRequest.prepare(profile, userTurn(Fixtures.png(), big), FIT);

    Part.Image fitted = request.conversation().images().get(1);
    assertEquals(MediaType.PNG, fitted.mediaType());
    ImageHeaders.Dimensions d = ImageHeaders.dimensions(fitted.data().toByteArray());
    assertEquals(100, d.width());
    assertEquals(50, d.height());
    assertEquals(1, request.fitReport().changes().size());
    FitReport.Change change = request.fitReport().changes().get(0);
    assertEquals(1, change.imageIndex());
    assertEquals(300, change.widthBefore());
    assertEquals(100, change.widthAfter());
    assertTrue(change.reasons().get(0).contains("300x150 px, over 100 px"), change.toString());
    assertEquals(Fixtures.png(), request.conversation().images().get(0), "images within the rules are untouched");
  }

  @Test
  void gifForGemini_becomesItsFirstFrameAsPng() {
    Part.Image gif = new Part.Image(MediaType.GIF, ImageData.ofBytes(Fixtures.gifOf(20, 10)));
    LlmRequest request = LlmRequest.prepare(ProviderProfile.gemini(), userTurn(gif), FIT);
    Part.Image fitted = request.conversation().images().get(0);
    assertEquals(MediaType.PNG, fitted.mediaType());
    assertEquals(MediaType.PNG, ImageHeaders.signature(fitted.data().toByteArray(), 0, 12).orElseThrow());
    assertEquals(new ImageHeaders.Dimensions(20, 10), ImageHeaders.dimensions(fitted.data().toByteArray()));
    assertEquals(MediaType.GIF, request.fitReport().changes().get(0).from());
    assertTrue(new String(request.toByteArray(), java.nio.charset.StandardCharsets.US_ASCII).contains("\"mime_type\":\"image/png\""));
  }

  @Test
  void jpegOverTheSizeLimit_isRecompressedOrDownscaledUntilItFits() {
    byte[] jpeg = Fixtures.jpegOf(400, 400);
    long limit = jpeg.length / 3;
    ProviderProfile profile = ProviderProfile.openAiChat().toBuilder()
        .maxImageSize(ProviderProfile.SizeMeasure.DECODED_BYTES, limit).build();
    LlmRequest request = LlmRequest.prepare(profile, userTurn(new Part.Image(MediaType.JPEG, ImageData.ofBytes(jpeg))), FIT);
    Part.Image fitted = request.conversation().images().get(0);
    assertEquals(MediaType.JPEG, fitted.mediaType());
    assertTrue(fitted.data().size() <= limit, fitted.data().size() + " > " + limit);
    assertTrue(request.fitReport().changes().get(0).bytesAfter() <= limit);
  }

  @Test
  void pngInsideAToolResult_isFittedInPlace() {
    ProviderProfile profile = ProviderProfile.anthropic().toBuilder().maxDimension(64).build();
    Part.Image big = new Part.Image(MediaType.PNG, ImageData.ofBytes(Fixtures.pngOf(128, 128)));
    var c = new dev.tether.api.Conversation("", List.of(
        dev.tether.api.Turn.assistant(new Part.ToolUse("t", "shot", dev.tether.api.RawJson.of("{}"))),
        dev.tether.api.Turn.user(new Part.ToolResult("t", List.of(Fixtures.text("done"), big), false))));
    LlmRequest request = LlmRequest.prepare(profile, c, FIT);
    Part.ToolResult result = (Part.ToolResult) request.conversation().turns().get(1).parts().get(0);
    assertEquals(new ImageHeaders.Dimensions(64, 64), ImageHeaders.dimensions(((Part.Image) result.content().get(1)).data().toByteArray()));
    assertEquals("t", result.toolUseId());
  }

  @Test
  void webpCannotBeFitted_andFittingOffSuggestsIt() {
    Part.Image webp = new Part.Image(MediaType.WEBP, ImageData.ofBytes(Fixtures.webp(4, 4)));
    ImageRuleException e = assertThrows(ImageRuleException.class,
        () -> LlmRequest.prepare(ProviderProfile.ollama(), userTurn(webp), FIT));
    assertEquals(ImageRule.FORMAT, e.rule());
    assertTrue(e.getMessage().contains("no WebP codec"), e.getMessage());
    ImageRuleException off = assertThrows(ImageRuleException.class,
        () -> LlmRequest.prepare(ProviderProfile.ollama(), userTurn(webp)));
    assertTrue(off.getMessage().contains("withFitImages"), off.getMessage());
  }

  @Test
  void smallFileClaimingHugeDimensions_isRefusedWithoutDecoding() {
    Part.Image bomb = Fixtures.pngPart(50_000, 50_000, 200);
    ImageRuleException e = assertThrows(ImageRuleException.class,
        () -> LlmRequest.prepare(ProviderProfile.anthropic(), userTurn(bomb), FIT));
    assertEquals(ImageRule.DIMENSIONS, e.rule());
    assertTrue(e.getMessage().contains("too large to fit automatically"), e.getMessage());
  }

  @Test
  void damagedPixelDataBehindAValidHeader_isInvalidDataWhenFitting() {
    Part.Image damaged = Fixtures.pngPart(9000, 10, 500); // IHDR fine, no IDAT
    ImageRuleException e = assertThrows(ImageRuleException.class,
        () -> LlmRequest.prepare(ProviderProfile.anthropic(), userTurn(damaged), FIT));
    assertEquals(ImageRule.INVALID_DATA, e.rule());
  }

  @Test
  void typeMismatchIsNeverFitted() {
    Part.Image lying = new Part.Image(MediaType.JPEG, ImageData.ofBytes(Fixtures.pngOf(4, 4)));
    assertEquals(ImageRule.TYPE_MISMATCH, assertThrows(ImageRuleException.class,
        () -> LlmRequest.prepare(ProviderProfile.anthropic(), userTurn(lying), FIT)).rule());
  }
}
