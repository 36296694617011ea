package dev.tether.llm;

import static dev.tether.llm.Fixtures.png;
import static dev.tether.llm.Fixtures.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.Role;
import dev.tether.api.Turn;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Empty text parts: never written as blocks, and a turn of nothing else is refused where the provider would. */
class EmptyTextTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonNode body(ProviderProfile profile, Turn... turns) {
    return LlmRequest.prepare(profile, new Conversation("", List.of(turns)),
        RequestOptions.defaults().withModel("m")).toTree();
  }

  @Test
  void imageOnlyUserTurnWithEmptyText_writesNoEmptyTextBlockForAnyProvider() throws Exception {
    for (ProviderProfile profile : GoldenRequestTest.profiles()) {
      LlmRequest request = LlmRequest.prepare(profile,
          new Conversation("", List.of(Turn.user(text(""), png()))), RequestOptions.defaults().withModel("m"));
      String json = new String(request.toByteArray(), StandardCharsets.UTF_8);
      assertFalse(json.contains("\"text\":\"\""), profile.name() + ": " + json.replaceAll("[A-Za-z0-9+/=]{40,}", "…"));
    }
    JsonNode claude = body(ProviderProfile.anthropic(), Turn.user(text(""), png())).get("messages").get(0).get("content");
    assertEquals(1, claude.size());
    assertEquals("image", claude.get(0).get("type").asText());
    JsonNode gemini = body(ProviderProfile.gemini(), Turn.user(text(""), png())).get("contents").get(0).get("parts");
    assertEquals(1, gemini.size());
    assertEquals("image/png", gemini.get(0).get("inline_data").get("mime_type").asText());
  }

  @Test
  void textOnlyTurnWithEmptyText_isRefusedForClaudeAndGeminiNamingTheTurn() {
    for (ProviderProfile profile : List.of(ProviderProfile.anthropic(), ProviderProfile.gemini())) {
      IllegalArgumentException alone = assertThrows(IllegalArgumentException.class,
          () -> body(profile, Turn.user(text(""))));
      assertEquals("turn 0 (user) holds only empty text, which " + profile.provider().displayName()
          + " rejects as an empty message; give it text, an image or a tool part, or leave it out", alone.getMessage());
      IllegalArgumentException middle = assertThrows(IllegalArgumentException.class,
          () -> body(profile, Turn.user(text("hi")), Turn.assistant(text("")), Turn.user(text("and?"))));
      assertEquals(true, middle.getMessage().startsWith("turn 1 (assistant) holds only empty text"), middle.getMessage());
      IllegalArgumentException run = assertThrows(IllegalArgumentException.class,
          () -> body(profile, Turn.user(text("hi")), Turn.assistant(text("")), Turn.assistant(text(""), text(""))));
      assertEquals(true, run.getMessage().startsWith("turns 1..2 (assistant) hold only empty text"), run.getMessage());
    }
  }

  @Test
  void emptyTurnMergedWithASameRoleTurn_isAcceptedAndWritesOnlyTheText() {
    JsonNode claude = body(ProviderProfile.anthropic(), Turn.user(text("")), Turn.user(text("hi")));
    assertEquals(MAPPER.createArrayNode().add(MAPPER.createObjectNode().put("type", "text").put("text", "hi")),
        claude.get("messages").get(0).get("content"));
    assertEquals(1, claude.get("messages").size());
    JsonNode gemini = body(ProviderProfile.gemini(), Turn.user(text("hi")), Turn.user(text("")));
    assertEquals(MAPPER.createArrayNode().add(MAPPER.createObjectNode().put("text", "hi")),
        gemini.get("contents").get(0).get("parts"));
  }

  @Test
  void anyTurnMix_isRefusedExactlyWhenAMergedMessageIsEmptyAndNeverWritesAnEmptyTextBlock() {
    // Each int is one turn: bit 0 the role, bit 1 whether its text is empty, bit 2 something beside
    // the text (an image in a user turn, more text in an assistant turn, where images cannot go).
    qt().withExamples(300).forAll(lists().of(integers().between(0, 7)).ofSizeBetween(0, 6)).checkAssert(codes -> {
      List<Turn> turns = new ArrayList<>();
      for (int code : codes) {
        Part.Text t = text((code & 2) != 0 ? "" : "x");
        Part beside = role(code) == Role.USER ? png() : text("y");
        turns.add(new Turn(role(code), (code & 4) != 0 ? List.of(t, beside) : List.of(t)));
      }
      boolean emptyMessage = false;
      for (int i = 0; i < codes.size(); ) {
        int j = i;
        boolean content = false;
        while (j < codes.size() && role(codes.get(j)) == role(codes.get(i))) {
          content |= (codes.get(j) & 6) != 2;
          j++;
        }
        emptyMessage |= !content;
        i = j;
      }
      for (ProviderProfile profile : List.of(ProviderProfile.anthropic(), ProviderProfile.gemini())) {
        Conversation conversation = new Conversation("", turns);
        if (emptyMessage) {
          assertThrows(IllegalArgumentException.class, () -> LlmRequest.prepare(profile, conversation));
        } else {
          String json = new String(LlmRequest.prepare(profile, conversation).toByteArray(), StandardCharsets.UTF_8);
          assertFalse(json.contains("\"text\":\"\""), codes + " " + profile.name());
        }
      }
    });
  }

  private static Role role(int code) {
    return (code & 1) == 0 ? Role.USER : Role.ASSISTANT;
  }

  @Test
  void textOnlyTurnWithEmptyText_isWrittenAsEmptyTextForOpenAiAndOllama() {
    assertEquals("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"\"}]}]",
        body(ProviderProfile.openAiChat(), Turn.user(text(""))).get("messages").toString());
    assertEquals("[{\"role\":\"user\",\"content\":\"\"}]",
        body(ProviderProfile.ollama(), Turn.user(text(""))).get("messages").toString());
    assertEquals("[{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"\"}]}]",
        body(ProviderProfile.openAiResponses(), Turn.user(text(""))).get("input").toString());
  }
}
