package dev.tether.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.tether.api.Conversation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each provider's request for each scenario against a reviewed golden file in
 * {@code src/test/resources/golden/<profile>/<scenario>.json}. Run with {@code -Dgolden.update=true}
 * to rewrite the files after a deliberate change, then review the diff.
 */
class GoldenRequestTest {
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  static List<ProviderProfile> profiles() {
    return List.of(ProviderProfile.anthropic(), ProviderProfile.openAiChat(), ProviderProfile.openAiResponses(),
        ProviderProfile.ollama(), ProviderProfile.gemini());
  }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (ProviderProfile profile : profiles()) {
      for (Map.Entry<String, Conversation> e : Fixtures.scenarios().entrySet()) {
        cases.add(Arguments.of(profile.name(), e.getKey(), profile, e.getValue()));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void request_matchesGoldenFile(String profileName, String scenario, ProviderProfile profile, Conversation conversation)
      throws IOException {
    LlmRequest request = LlmRequest.prepare(profile, conversation, RequestOptions.defaults().withModel("test-model"));
    byte[] bytes = request.toByteArray();
    JsonNode actual = MAPPER.readTree(bytes);
    String resource = "/golden/" + profileName + "/" + scenario + ".json";
    if (Boolean.getBoolean("golden.update")) {
      Path file = Path.of("src/test/resources" + resource);
      Files.createDirectories(file.getParent());
      Files.writeString(file, MAPPER.writeValueAsString(actual) + "\n");
    }
    try (InputStream in = GoldenRequestTest.class.getResourceAsStream(resource)) {
      assertTrue(in != null, "missing golden file " + resource);
      JsonNode expected = MAPPER.readTree(in);
      assertEquals(MAPPER.writeValueAsString(expected), MAPPER.writeValueAsString(actual));
    }
    assertEquals(actual, request.toTree(), "the tree form must equal the streamed bytes");
  }
}
