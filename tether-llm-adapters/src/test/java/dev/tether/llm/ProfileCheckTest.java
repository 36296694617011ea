package dev.tether.llm;

import static dev.tether.llm.Fixtures.pngPart;
import static dev.tether.llm.Fixtures.text;
import static dev.tether.llm.Fixtures.userTurn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Conversation;
import dev.tether.api.ErrorCode;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.RawJson;
import dev.tether.api.Turn;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileCheckTest {
  private static ImageRuleException rejected(ProviderProfile profile, Conversation conversation) {
    return assertThrows(ImageRuleException.class, () -> LlmRequest.prepare(profile, conversation));
  }

  @Test
  void declaredPngHoldingJpegBytes_isRejectedAsTypeMismatchNamingTheImage() {
    byte[] jpeg = Base64.getDecoder().decode(Fixtures.JPEG_2X1);
    Conversation c = userTurn(text("look"), Fixtures.png(), new Part.Image(MediaType.PNG, ImageData.ofBytes(jpeg)));
    for (ProviderProfile profile : GoldenRequestTest.profiles()) {
      ImageRuleException e = rejected(profile, c);
      assertEquals(ImageRule.TYPE_MISMATCH, e.rule());
      assertEquals(1, e.imageIndex());
      assertEquals(profile.name(), e.profileName());
      assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, e.rule().errorCode());
      assertTrue(e.getMessage().contains("image 1 cannot go to " + profile.name()), e.getMessage());
      assertTrue(e.getMessage().contains("are image/jpeg"), e.getMessage());
    }
  }

  @Test
  void base64WithMismatchedSignature_isRejectedAsTypeMismatch() {
    Conversation c = userTurn(new Part.Image(MediaType.GIF, ImageData.ofBase64(Fixtures.PNG_1X1)));
    ImageRuleException e = rejected(ProviderProfile.openAiChat(), c);
    assertEquals(ImageRule.TYPE_MISMATCH, e.rule());
    assertTrue(e.getMessage().startsWith("image 0 cannot go to openai-chat: it is declared as image/gif but its bytes are image/png"),
        e.getMessage());
  }

  @Test
  void dataUriPrefixOrWhitespaceInBase64_isRejectedAsInvalidData() {
    Conversation prefixed = userTurn(new Part.Image(MediaType.PNG, ImageData.ofBase64("data:image/png;base64," + Fixtures.PNG_1X1)));
    ImageRuleException e = rejected(ProviderProfile.openAiChat(), prefixed);
    assertEquals(ImageRule.INVALID_DATA, e.rule());
    assertTrue(e.getMessage().contains("data:"), e.getMessage());
    String wrapped = Fixtures.PNG_1X1.substring(0, 20) + "\n" + Fixtures.PNG_1X1.substring(20);
    Conversation withNewline = userTurn(new Part.Image(MediaType.PNG, ImageData.ofBase64(wrapped)));
    assertTrue(rejected(ProviderProfile.anthropic(), withNewline).getMessage().contains("whitespace"));
    Conversation empty = userTurn(new Part.Image(MediaType.PNG, ImageData.ofBytes(new byte[0])));
    assertEquals(ImageRule.TYPE_MISMATCH, rejected(ProviderProfile.ollama(), empty).rule());
  }

  @Test
  void gifToGeminiAndWebpToOllama_areRejectedAsFormat() {
    Part.Image gif = new Part.Image(MediaType.GIF, ImageData.ofBytes(Fixtures.gifOf(2, 2)));
    ImageRuleException e = rejected(ProviderProfile.gemini(), userTurn(Fixtures.png(), gif));
    assertEquals(ImageRule.FORMAT, e.rule());
    assertEquals(1, e.imageIndex());
    assertTrue(e.getMessage().contains("image/gif is not accepted"), e.getMessage());
    Part.Image webp = new Part.Image(MediaType.WEBP, ImageData.ofBytes(Fixtures.webp(4, 4)));
    assertEquals(ImageRule.FORMAT, rejected(ProviderProfile.ollama(), userTurn(webp)).rule());
    byte[] body = LlmRequest.prepare(ProviderProfile.ollamaWithWebp(), userTurn(webp)).toByteArray();
    assertTrue(new String(body, java.nio.charset.StandardCharsets.US_ASCII).contains(Base64.getEncoder().encodeToString(Fixtures.webp(4, 4))));
  }

  @Test
  void anthropicCountsBase64Length_portableFiveMiBAndDirectTenMiB() {
    int atLimit = (int) (ProviderProfile.ANTHROPIC_PORTABLE_IMAGE_BYTES / 4 * 3); // base64 exactly 5 MiB
    LlmRequest.prepare(ProviderProfile.anthropic(), userTurn(pngPart(100, 100, atLimit)));
    ImageRuleException e = rejected(ProviderProfile.anthropic(), userTurn(pngPart(100, 100, atLimit + 1)));
    assertEquals(ImageRule.SIZE, e.rule());
    assertTrue(e.getMessage().contains("5242884 base64 characters"), e.getMessage());
    LlmRequest.prepare(ProviderProfile.anthropicDirectApi(), userTurn(pngPart(100, 100, atLimit + 1)));
    int directLimit = (int) (ProviderProfile.ANTHROPIC_DIRECT_IMAGE_BYTES / 4 * 3);
    assertEquals(ImageRule.SIZE, rejected(ProviderProfile.anthropicDirectApi(), userTurn(pngPart(1, 1, directLimit + 1))).rule());
  }

  @Test
  void anthropicDimensions_8000pxAnd2000pxOverTwentyImages() {
    LlmRequest.prepare(ProviderProfile.anthropic(), userTurn(pngPart(8000, 8000, 100)));
    ImageRuleException e = rejected(ProviderProfile.anthropic(), userTurn(pngPart(10, 10, 100), pngPart(8001, 10, 100)));
    assertEquals(ImageRule.DIMENSIONS, e.rule());
    assertEquals(1, e.imageIndex());
    assertTrue(e.getMessage().contains("8001x10"), e.getMessage());

    List<Part> twenty = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      twenty.add(pngPart(2001, 2001, 100));
    }
    LlmRequest.prepare(ProviderProfile.anthropic(), new Conversation("", List.of(new Turn(dev.tether.api.Role.USER, twenty))));
    List<Part> twentyOne = new ArrayList<>();
    for (int i = 0; i < 21; i++) {
      twentyOne.add(i == 3 ? pngPart(2001, 5, 100) : pngPart(2000, 2000, 100));
    }
    ImageRuleException many = rejected(ProviderProfile.anthropic(),
        new Conversation("", List.of(new Turn(dev.tether.api.Role.USER, twentyOne))));
    assertEquals(ImageRule.DIMENSIONS, many.rule());
    assertEquals(3, many.imageIndex());
  }

  @Test
  void unreadableHeader_isInvalidData() {
    byte[] broken = Fixtures.pngHeader(10, 10, 40);
    broken[12] = 'X'; // IHDR becomes XHDR
    Conversation c = userTurn(new Part.Image(MediaType.PNG, ImageData.ofBytes(broken)));
    assertEquals(ImageRule.INVALID_DATA, rejected(ProviderProfile.anthropic(), c).rule());
  }

  @Test
  void tooManyImages_namesTheFirstImageOverTheLimit() {
    ProviderProfile two = ProviderProfile.openAiChat().toBuilder().name("two").maxImagesPerRequest(2).build();
    Conversation c = new Conversation("", List.of(
        Turn.user(text("a"), Fixtures.png()),
        Turn.assistant(text("ok"), new Part.ToolUse("t1", "shot", RawJson.of("{}"))),
        Turn.user(new Part.ToolResult("t1", List.of(Fixtures.png(), Fixtures.png()), false))));
    ImageRuleException e = rejected(two, c);
    assertEquals(ImageRule.COUNT, e.rule());
    assertEquals(2, e.imageIndex());
    assertEquals(ErrorCode.TOO_MANY_IMAGES, e.rule().errorCode());
  }

  @Test
  void totalOverTheRequestLimit_namesTheImageThatTipsIt() {
    ProviderProfile small = ProviderProfile.gemini().toBuilder().maxTotalImageSize(1000).build();
    ImageRuleException e = rejected(small, userTurn(pngPart(1, 1, 300), pngPart(1, 1, 300), pngPart(1, 1, 300)));
    assertEquals(ImageRule.TOTAL_SIZE, e.rule());
    assertEquals(2, e.imageIndex()); // 400 + 400 base64 characters fit in 1000; the third tips it
    assertTrue(e.getMessage().contains("1200 base64 characters"), e.getMessage());
  }

  @Test
  void imageInAnAssistantTurn_isRejectedForClaudeAndOpenAiButWrittenForGemini() {
    Conversation c = new Conversation("", List.of(Turn.user(text("draw")), Turn.assistant(text("here"), Fixtures.png())));
    for (ProviderProfile p : List.of(ProviderProfile.anthropic(), ProviderProfile.openAiChat(), ProviderProfile.openAiResponses())) {
      ImageRuleException e = rejected(p, c);
      assertEquals(ImageRule.PLACEMENT, e.rule());
      assertEquals(ErrorCode.IMAGES_NOT_ALLOWED, e.rule().errorCode());
    }
    String gemini = new String(LlmRequest.prepare(ProviderProfile.gemini(), c).toByteArray(), java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(gemini.contains("\"role\":\"model\",\"parts\":[{\"text\":\"here\"},{\"inline_data\""), gemini);
  }

  @Test
  void toolPartsInTheWrongTurn_areCallerMistakes() {
    Conversation useInUser = userTurn(new Part.ToolUse("t", "n", RawJson.of("{}")));
    assertThrows(IllegalArgumentException.class, () -> LlmRequest.prepare(ProviderProfile.anthropic(), useInUser));
    Conversation resultInAssistant = new Conversation("", List.of(Turn.assistant(new Part.ToolResult("t", List.of(), false))));
    assertThrows(IllegalArgumentException.class, () -> LlmRequest.prepare(ProviderProfile.gemini(), resultInAssistant));
  }

  @Test
  void claudeToolResultWithoutContent_leavesContentOut() {
    Conversation c = new Conversation("", List.of(
        Turn.assistant(new Part.ToolUse("t", "noop", RawJson.of("{}"))),
        Turn.user(new Part.ToolResult("t", List.of(text("")), true))));
    String body = new String(LlmRequest.prepare(ProviderProfile.anthropic(), c).toByteArray(), java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(body.contains("{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"is_error\":true}"), body);
  }

  @Test
  void unpaddedBase64_isWrittenPadded() {
    String unpadded = Fixtures.PNG_1X1.replace("=", "");
    Conversation c = userTurn(new Part.Image(MediaType.PNG, ImageData.ofBase64(unpadded)));
    String body = new String(LlmRequest.prepare(ProviderProfile.anthropic(), c).toByteArray(), java.nio.charset.StandardCharsets.US_ASCII);
    assertTrue(body.contains("\"data\":\"" + Fixtures.PNG_1X1 + "\""), body);
  }

  @Test
  void profileBuilder_failsFastNamingTheSetting() {
    var b = ProviderProfile.builder("x", Provider.CLAUDE);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> b.maxImagesPerRequest(-1)).getMessage().contains("maxImagesPerRequest must be >= 0 but was -1"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> b.maxImageSize(ProviderProfile.SizeMeasure.DECODED_BYTES, 0)).getMessage().contains("maxImageSize"));
    assertThrows(IllegalArgumentException.class, () -> b.formats(java.util.Set.of()));
    assertThrows(IllegalArgumentException.class, () -> ProviderProfile.builder(" ", Provider.CLAUDE));
    assertThrows(IllegalArgumentException.class, () -> RequestOptions.defaults().withMaxTokens(-5));
    Conversation hello = userTurn(text("hi"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LlmRequest.prepare(ProviderProfile.anthropic(), hello,
        RequestOptions.defaults().withMaxTokens(0))).getMessage().contains("maxTokens must be > 0"));
    LlmRequest.prepare(ProviderProfile.openAiChat(), hello, RequestOptions.defaults().withMaxTokens(0));
  }
}
