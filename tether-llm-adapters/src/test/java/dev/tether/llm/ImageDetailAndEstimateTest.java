package dev.tether.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.RawJson;
import dev.tether.api.Turn;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-image detail in the OpenAI writers (ignored by the others) and the estimates in the fit report. */
class ImageDetailAndEstimateTest {
  /** Image 0 in the user turn, image 1 inside a tool result, image 2 after it. */
  static Conversation threeImages() {
    return new Conversation("", List.of(
        Turn.user(new Part.Text("look"), Fixtures.pngPart(1024, 1024, 100)),
        Turn.assistant(new Part.ToolUse("call1", "shot", RawJson.of("{}"))),
        Turn.user(new Part.ToolResult("call1", List.of(Fixtures.pngPart(2048, 4096, 100)), false),
            Fixtures.pngPart(100, 100, 100))));
  }

  static final RequestOptions OPTIONS = RequestOptions.defaults().withDetail(ImageDetail.HIGH)
      .withImageDetail(0, ImageDetail.LOW).withImageDetail(2, ImageDetail.AUTO);

  private static List<String> details(JsonNode tree) {
    List<String> out = new ArrayList<>();
    tree.findValues("detail").forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void openAiChatWritesEachImagesOwnDetail() {
    JsonNode tree = LlmRequest.prepare(ProviderProfile.openAiChat(), threeImages(), OPTIONS).toTree();
    assertEquals(List.of("low", "high", "auto"), details(tree));
  }

  @Test
  void openAiResponsesWritesEachImagesOwnDetail() {
    JsonNode tree = LlmRequest.prepare(ProviderProfile.openAiResponses(), threeImages(), OPTIONS).toTree();
    assertEquals(List.of("low", "high", "auto"), details(tree));
  }

  @Test
  void theOtherWritersIgnoreIt() {
    for (ProviderProfile p : List.of(ProviderProfile.anthropic(), ProviderProfile.gemini(), ProviderProfile.ollama())) {
      String body = new String(LlmRequest.prepare(p, threeImages(), OPTIONS).toByteArray(), StandardCharsets.UTF_8);
      assertFalse(body.contains("\"detail\""), p.name());
      assertEquals(body, new String(LlmRequest.prepare(p, threeImages()).toByteArray(), StandardCharsets.UTF_8), p.name());
    }
  }

  @Test
  void withoutImageDetailsEveryImageGetsTheRequestDetail() {
    JsonNode tree = LlmRequest.prepare(ProviderProfile.openAiChat(), threeImages(),
        RequestOptions.defaults().withDetail(ImageDetail.LOW)).toTree();
    assertEquals(List.of("low", "low", "low"), details(tree));
  }

  @Test
  void theFitReportEstimatesEachImageWithItsDetail() {
    FitReport report = LlmRequest.prepare(ProviderProfile.openAiChat(), threeImages(), OPTIONS).fitReport();
    assertTrue(report.isEmpty(), "nothing was fitted");
    assertEquals(List.of(new FitReport.ImageTokens(0, 1024, 1024, ImageDetail.LOW, 85),
        new FitReport.ImageTokens(1, 2048, 4096, ImageDetail.HIGH, 1105),
        new FitReport.ImageTokens(2, 100, 100, ImageDetail.AUTO, 255)), report.imageTokens());
    assertEquals(85 + 1105 + 255, report.totalImageTokens());

    FitReport claude = LlmRequest.prepare(ProviderProfile.anthropic().toBuilder().maxDimension(0).build(), threeImages())
        .fitReport();
    assertEquals(List.of(1399, 1599, 14), // detail ignored: 1024x1024; 2048x4096 resized to 774x1549; 100x100
        claude.imageTokens().stream().map(FitReport.ImageTokens::tokens).toList());
    assertTrue(LlmRequest.prepare(ProviderProfile.ollama(), Fixtures.userTurn(Fixtures.png())).fitReport().imageTokens().isEmpty());
  }

  @Test
  void anImageIndexMustNotBeNegative() {
    assertThrows(IllegalArgumentException.class, () -> RequestOptions.defaults().withImageDetail(-1, ImageDetail.LOW));
    assertEquals(ImageDetail.AUTO, RequestOptions.defaults().detailOf(7));
    assertEquals(ImageDetail.LOW, OPTIONS.detailOf(0));
    assertEquals(ImageDetail.HIGH, OPTIONS.detailOf(1));
  }
}
