package dev.tether.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.Conversation;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * Reads our request bodies into the providers' own published Java types (Anthropic's and
 * OpenAI's official SDKs, test scope only), validates them there, and writes them back with the
 * SDKs' own mappers: the result must equal what we wrote. The SDKs keep unknown fields, so the
 * round trip alone would prove little; {@code validate()} is what rejects an unknown block type or
 * a field of the wrong shape, and each SDK has a negative control showing that it does.
 *
 * <p>Ollama and Gemini have no official Java types on Maven Central that take our spelling
 * (Google's google-genai uses camelCase field names), so those two are checked by golden files only.
 */
class ProviderSdkConformanceTest {
  private static final JsonMapper ANTHROPIC = com.anthropic.core.ObjectMappers.jsonMapper();
  private static final JsonMapper OPENAI = com.openai.core.ObjectMappers.jsonMapper();

  /** Numbers compare by value: the SDKs hold max_tokens as a long, we write an int. */
  private static final java.util.Comparator<JsonNode> BY_VALUE = (a, b) -> {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue());
    }
    return a.equals(b) ? 0 : 1;
  };

  private static void eachScenario(ProviderProfile profile, String model, JsonMapper mapper, BiFunction<JsonMapper, byte[], Object> readAndValidate)
      throws Exception {
    for (Map.Entry<String, Conversation> e : Fixtures.scenarios().entrySet()) {
      byte[] ours = LlmRequest.prepare(profile, e.getValue(), RequestOptions.defaults().withModel(model)).toByteArray();
      Object sdkBody = readAndValidate.apply(mapper, ours);
      JsonNode back = mapper.valueToTree(sdkBody);
      JsonNode expected = mapper.readTree(ours);
      assertTrue(expected.equals(BY_VALUE, back),
          profile.name() + " " + e.getKey() + " changed in the SDK round trip:\n" + expected + "\n" + back);
    }
  }

  private static <T> T read(JsonMapper mapper, byte[] json, Class<T> type) {
    try {
      return mapper.readValue(json, type);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void claudeRequests_roundTripThroughAnthropicSdkTypes() throws Exception {
    eachScenario(ProviderProfile.anthropic(), "claude-sonnet-4-5", ANTHROPIC,
        (m, json) -> read(m, json, com.anthropic.models.messages.MessageCreateParams.Body.class).validate());
    var body = read(ANTHROPIC, LlmRequest.prepare(ProviderProfile.anthropic(), Fixtures.scenarios().get("tool_result_image"),
        RequestOptions.defaults().withModel("gpt-4o")).toByteArray(), com.anthropic.models.messages.MessageCreateParams.Body.class);
    body.validate();
    assertEquals(3, body.messages().size());
    assertEquals(1024L, body.maxTokens());
  }

  @Test
  void anthropicSdk_rejectsAnUnknownBlockType_soTheCheckCanFail() throws Exception {
    byte[] ours = LlmRequest.prepare(ProviderProfile.anthropic(), Fixtures.scenarios().get("text_two_images"),
        RequestOptions.defaults().withModel("gpt-4o")).toByteArray();
    ObjectNode tree = (ObjectNode) ANTHROPIC.readTree(ours);
    ((ObjectNode) tree.at("/messages/0/content/1")).put("type", "picture");
    var body = ANTHROPIC.treeToValue(tree, com.anthropic.models.messages.MessageCreateParams.Body.class);
    assertThrows(RuntimeException.class, body::validate);
  }

  @Test
  void openAiChatRequests_roundTripThroughOpenAiSdkTypes() throws Exception {
    eachScenario(ProviderProfile.openAiChat(), "gpt-4o", OPENAI,
        (m, json) -> read(m, json, com.openai.models.chat.completions.ChatCompletionCreateParams.Body.class).validate());
    var body = read(OPENAI, LlmRequest.prepare(ProviderProfile.openAiChat(), Fixtures.scenarios().get("tool_result_image"),
        RequestOptions.defaults().withModel("gpt-4o")).toByteArray(),
        com.openai.models.chat.completions.ChatCompletionCreateParams.Body.class).validate();
    assertTrue(body.messages().get(1).isAssistant());
    assertTrue(body.messages().get(2).isTool(), "the tool result is a tool message");
    assertTrue(body.messages().get(3).isUser(), "its image follows as a user message");
  }

  @Test
  void openAiResponsesRequests_roundTripThroughOpenAiSdkTypes() throws Exception {
    eachScenario(ProviderProfile.openAiResponses(), "gpt-4o", OPENAI,
        (m, json) -> read(m, json, com.openai.models.responses.ResponseCreateParams.Body.class).validate());
    var body = read(OPENAI, LlmRequest.prepare(ProviderProfile.openAiResponses(), Fixtures.scenarios().get("tool_result_image"),
        RequestOptions.defaults().withModel("gpt-4o")).toByteArray(), com.openai.models.responses.ResponseCreateParams.Body.class).validate();
    var items = body.input().orElseThrow().asResponse();
    var output = items.get(3).asFunctionCallOutput().output();
    assertTrue(output.isResponseFunctionCallOutputItemList(), "function_call_output carries input_image as a list");
    assertTrue(output.asResponseFunctionCallOutputItemList().get(1).isInputImage());
  }

  @Test
  void openAiSdk_rejectsImageUrlAsAnObjectInResponses_soTheCheckCanFail() throws Exception {
    byte[] ours = LlmRequest.prepare(ProviderProfile.openAiResponses(), Fixtures.scenarios().get("image_only"),
        RequestOptions.defaults().withModel("gpt-4o")).toByteArray();
    ObjectNode tree = (ObjectNode) OPENAI.readTree(ours);
    ObjectNode image = (ObjectNode) tree.at("/input/0/content/0");
    image.putObject("image_url").put("url", image.get("image_url").asText());
    var body = OPENAI.treeToValue(tree, com.openai.models.responses.ResponseCreateParams.Body.class);
    assertThrows(RuntimeException.class, body::validate);
  }
}
