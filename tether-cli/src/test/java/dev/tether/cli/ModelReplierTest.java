package dev.tether.cli;

import dev.tether.server.testing.Fixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.Image;
import dev.tether.api.Part;
import dev.tether.api.Payload;
import dev.tether.api.Turn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real streamed model calls against a local fake that speaks each provider's stream format. */
class ModelReplierTest {
  private FakeProvider fake;
  private final Image photo = Fixtures.png(10, 10);

  @BeforeEach
  void start() throws Exception {
    fake = new FakeProvider();
  }

  @AfterEach
  void stop() throws Exception {
    fake.close();
  }

  private List<String> call(ModelReplier.Kind kind, String key, List<Turn> history, StringBuilder text) throws Exception {
    ModelReplier replier = new ModelReplier(new ModelReplier.Endpoint(kind, fake.base(), key, "test-model"));
    List<String> deltas = new ArrayList<>();
    Replier.Reply r = replier.reply(history, Payload.UserMessage.of("what is this?", List.of(photo)), deltas::add, () -> false);
    text.append(r.text());
    return deltas;
  }

  @Test
  void claude_streamsContentBlockDeltas_andSendsTheAdaptersRequest() throws Exception {
    fake.answer(200, "text/event-stream", List.of(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"role\":\"assistant\",\"content\":[]}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: ping\ndata: {\"type\": \"ping\"}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"An orange \"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"square.\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":5}}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"));
    StringBuilder text = new StringBuilder();
    List<Turn> history = List.of(Turn.user(new Part.Text("hi")), Turn.assistant(new Part.Text("hello")));
    assertEquals(List.of("An orange ", "square."), call(ModelReplier.Kind.CLAUDE, "sk-ant-test", history, text));
    assertEquals("An orange square.", text.toString());
    FakeProvider.Recorded req = fake.last();
    assertEquals("/v1/messages", req.path());
    assertEquals("sk-ant-test", req.headers().get("x-api-key"));
    assertEquals("2023-06-01", req.headers().get("anthropic-version"));
    JsonNode body = Json.MAPPER.readTree(req.body());
    assertTrue(body.path("stream").asBoolean());
    assertEquals("test-model", body.path("model").asText());
    assertEquals(3, body.path("messages").size(), "history plus the new turn: " + body);
    JsonNode image = body.path("messages").path(2).path("content").path(0);
    assertEquals("image", image.path("type").asText());
    assertEquals(photo.data(), image.path("source").path("data").asText());
  }

  @Test
  void openAiChat_streamsChoiceDeltasUntilDone() throws Exception {
    fake.answer(200, "text/event-stream", List.of(
        "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n",
        "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"A \"},\"finish_reason\":null}]}\n\n",
        "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"circle.\"},\"finish_reason\":null}]}\n\n",
        "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        "data: [DONE]\n\n"));
    StringBuilder text = new StringBuilder();
    assertEquals(List.of("A ", "circle."), call(ModelReplier.Kind.OPENAI, "sk-test", List.of(), text));
    FakeProvider.Recorded req = fake.last();
    assertEquals("/chat/completions", req.path());
    assertEquals("Bearer sk-test", req.headers().get("authorization"));
    JsonNode body = Json.MAPPER.readTree(req.body());
    assertTrue(body.path("stream").asBoolean());
    assertTrue(req.body().contains("\"url\":\"data:image/png;base64," + photo.data()), "image_url data URI");
  }

  @Test
  void ollama_streamsNdjsonMessages() throws Exception {
    fake.answer(200, "application/x-ndjson", List.of(
        "{\"model\":\"m\",\"created_at\":\"2025-01-01T00:00:00Z\",\"message\":{\"role\":\"assistant\",\"content\":\"Two \"},\"done\":false}\n",
        "{\"model\":\"m\",\"created_at\":\"2025-01-01T00:00:00Z\",\"message\":{\"role\":\"assistant\",\"content\":\"shapes.\"},\"done\":false}\n",
        "{\"model\":\"m\",\"created_at\":\"2025-01-01T00:00:00Z\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\"}\n"));
    StringBuilder text = new StringBuilder();
    assertEquals(List.of("Two ", "shapes."), call(ModelReplier.Kind.OLLAMA, null, List.of(), text));
    FakeProvider.Recorded req = fake.last();
    assertEquals("/api/chat", req.path());
    JsonNode body = Json.MAPPER.readTree(req.body());
    assertEquals(photo.data(), body.path("messages").path(body.path("messages").size() - 1).path("images").path(0).asText());
  }

  @Test
  void providerError_statusOrStreamEvent_isAnIOExceptionWithTheMessage() throws Exception {
    fake.answer(401, "application/json", List.of("{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}"));
    IOException status = assertThrows(IOException.class, () -> call(ModelReplier.Kind.CLAUDE, "bad", List.of(), new StringBuilder()));
    assertTrue(status.getMessage().contains("401") && status.getMessage().contains("invalid x-api-key"), status.getMessage());
    fake.answer(200, "text/event-stream", List.of(
        "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"));
    IOException event = assertThrows(IOException.class, () -> call(ModelReplier.Kind.CLAUDE, "k", List.of(), new StringBuilder()));
    assertTrue(event.getMessage().contains("Overloaded"), event.getMessage());
  }

  @Test
  void cancel_stopsReadingTheStream() throws Exception {
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      many.add("data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n");
    }
    fake.answer(200, "text/event-stream", many);
    ModelReplier replier = new ModelReplier(new ModelReplier.Endpoint(ModelReplier.Kind.OPENAI, fake.base(), "k", "m"));
    AtomicInteger seen = new AtomicInteger();
    Replier.Reply r = replier.reply(List.of(), Payload.UserMessage.of("go", List.of()), d -> seen.incrementAndGet(), () -> seen.get() >= 3);
    assertEquals(3, seen.get());
    assertEquals("xxx", r.text());
  }

  @Test
  void environment_picksClaudeThenOpenAiThenOllama() {
    assertNull(ModelReplier.fromEnvironment(Map.of(), null));
    assertEquals(ModelReplier.Kind.CLAUDE, ModelReplier.fromEnvironment(Map.of("ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o"), null).kind());
    ModelReplier.Endpoint openai = ModelReplier.fromEnvironment(Map.of("OPENAI_API_KEY", "o", "OLLAMA_HOST", "h:1"), "gpt-x");
    assertEquals(ModelReplier.Kind.OPENAI, openai.kind());
    assertEquals("gpt-x", openai.model());
    ModelReplier.Endpoint ollama = ModelReplier.fromEnvironment(Map.of("OLLAMA_HOST", "127.0.0.1:11434", "ANTHROPIC_API_KEY", " "), null);
    assertEquals("http://127.0.0.1:11434", ollama.base().toString());
    assertEquals(ModelReplier.Kind.OLLAMA.defaultModel, ollama.model());
  }
}
