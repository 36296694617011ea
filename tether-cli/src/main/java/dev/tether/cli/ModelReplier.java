package dev.tether.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.Payload;
import dev.tether.api.Turn;
import dev.tether.llm.LlmRequest;
import dev.tether.llm.ProviderProfile;
import dev.tether.llm.RequestOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Answers with a real model: the conversation (system prompt, the session's turns, the new
 * message with its images) is built into a request by the {@code tether-llm-adapters} writer of the
 * provider, sent with {@code "stream": true}, and the provider's stream (server-sent events for
 * Claude and OpenAI, NDJSON for Ollama) is turned into deltas as it arrives.
 *
 * <p>Images that break the provider's rules are fitted (downscaled or re-encoded) by the adapters
 * rather than rejected. Thread-safe: {@link HttpClient} is, and each call has its own state.
 */
final class ModelReplier implements Replier {
  static final String SYSTEM_PROMPT = "You are the tether demo agent. Answer briefly; describe images when asked.";

  /** A provider this replier can call, with the request profile and how its stream is read. */
  enum Kind {
    CLAUDE("claude-sonnet-4-5"),
    OPENAI("gpt-4o-mini"),
    OLLAMA("llama3.2-vision");

    final String defaultModel;

    Kind(String defaultModel) {
      this.defaultModel = defaultModel;
    }
  }

  /** Where and how to call: the kind, the base URL, the key (null for Ollama) and the model. */
  record Endpoint(Kind kind, URI base, String apiKey, String model) {
    Endpoint {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(base, "base");
      Objects.requireNonNull(model, "model");
    }
  }

  private final Endpoint endpoint;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  ModelReplier(Endpoint endpoint) {
    this.endpoint = endpoint;
  }

  /**
   * The endpoint the environment configures: {@code ANTHROPIC_API_KEY} (base
   * {@code ANTHROPIC_BASE_URL}), else {@code OPENAI_API_KEY} ({@code OPENAI_BASE_URL}), else
   * {@code OLLAMA_HOST}; null when none is set.
   */
  static Endpoint fromEnvironment(Map<String, String> env, String model) {
    String anthropic = env.get("ANTHROPIC_API_KEY");
    if (notBlank(anthropic)) {
      return new Endpoint(Kind.CLAUDE, URI.create(env.getOrDefault("ANTHROPIC_BASE_URL", "https://api.anthropic.com")),
          anthropic, model == null ? Kind.CLAUDE.defaultModel : model);
    }
    String openai = env.get("OPENAI_API_KEY");
    if (notBlank(openai)) {
      return new Endpoint(Kind.OPENAI, URI.create(env.getOrDefault("OPENAI_BASE_URL", "https://api.openai.com/v1")),
          openai, model == null ? Kind.OPENAI.defaultModel : model);
    }
    String ollama = env.get("OLLAMA_HOST");
    if (notBlank(ollama)) {
      String base = ollama.contains("://") ? ollama : "http://" + ollama;
      return new Endpoint(Kind.OLLAMA, URI.create(base), null, model == null ? Kind.OLLAMA.defaultModel : model);
    }
    return null;
  }

  @Override
  public Reply reply(List<Turn> history, Payload.UserMessage message, Consumer<String> deltas, BooleanSupplier cancelled)
      throws IOException, InterruptedException {
    List<Turn> turns = new ArrayList<>(history);
    List<Part> parts = new ArrayList<>();
    message.images().forEach(i -> parts.add(Part.Image.of(i)));
    parts.add(new Part.Text(message.text().isEmpty() ? "Describe the image." : message.text()));
    turns.add(Turn.user(parts.toArray(Part[]::new)));
    byte[] body = requestBody(new Conversation(SYSTEM_PROMPT, turns));
    HttpRequest.Builder req = HttpRequest.newBuilder(url())
        .timeout(Duration.ofMinutes(5))
        .header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    switch (endpoint.kind()) {
      case CLAUDE -> req.header("x-api-key", endpoint.apiKey()).header("anthropic-version", "2023-06-01");
      case OPENAI -> req.header("authorization", "Bearer " + endpoint.apiKey());
      case OLLAMA -> { }
    }
    HttpResponse<InputStream> response = http.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = response.body()) {
      if (response.statusCode() / 100 != 2) {
        String err = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
        throw new IOException(endpoint.kind() + " answered " + response.statusCode() + ": " + err);
      }
      StringBuilder text = new StringBuilder();
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while (!cancelled.getAsBoolean() && (line = lines.readLine()) != null) {
        StreamEvent e = StreamEvent.parse(endpoint.kind(), line);
        if (e.error() != null) {
          throw new IOException(endpoint.kind() + " stream error: " + e.error());
        }
        if (e.text() != null && !e.text().isEmpty()) {
          text.append(e.text());
          deltas.accept(e.text());
        }
        if (e.done()) {
          break;
        }
      }
      return new Reply(text.toString(), List.of());
    }
  }

  private URI url() {
    String base = endpoint.base().toString().replaceAll("/+$", "");
    return URI.create(switch (endpoint.kind()) {
      case CLAUDE -> base + "/v1/messages";
      case OPENAI -> base + "/chat/completions";
      case OLLAMA -> base + "/api/chat";
    });
  }

  /** The provider's request built by the adapters, with {@code model} and {@code "stream": true}. */
  byte[] requestBody(Conversation conversation) {
    ProviderProfile profile = switch (endpoint.kind()) {
      case CLAUDE -> ProviderProfile.anthropic();
      case OPENAI -> ProviderProfile.openAiChat();
      case OLLAMA -> ProviderProfile.ollama();
    };
    RequestOptions options = RequestOptions.defaults().withModel(endpoint.model()).withFitImages(true);
    ObjectNode tree = (ObjectNode) LlmRequest.prepare(profile, conversation, options).toTree();
    tree.put("stream", true);
    try {
      return Json.MAPPER.writeValueAsBytes(tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String describe() {
    return endpoint.kind().name().toLowerCase(Locale.ROOT) + " " + endpoint.model() + " at " + endpoint.base();
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }

  /** One line of a provider's stream, reduced to its text piece, end marker or error. */
  record StreamEvent(String text, boolean done, String error) {
    private static final StreamEvent NOTHING = new StreamEvent(null, false, null);

    /** Reads a line: SSE {@code data:} lines for Claude and OpenAI, a JSON object per line for Ollama. */
    static StreamEvent parse(Kind kind, String line) throws IOException {
      String json;
      if (kind == Kind.OLLAMA) {
        json = line.isBlank() ? null : line;
      } else {
        if (!line.startsWith("data:")) {
          return NOTHING; // event:, id:, comments and blank separators
        }
        json = line.substring(5).trim();
        if ("[DONE]".equals(json)) {
          return new StreamEvent(null, true, null);
        }
      }
      if (json == null || json.isEmpty()) {
        return NOTHING;
      }
      JsonNode n = Json.MAPPER.readTree(json);
      return switch (kind) {
        case CLAUDE -> {
          String type = n.path("type").asText();
          if ("error".equals(type)) {
            yield new StreamEvent(null, true, n.path("error").path("message").asText(n.toString()));
          }
          if ("content_block_delta".equals(type) && "text_delta".equals(n.path("delta").path("type").asText())) {
            yield new StreamEvent(n.path("delta").path("text").asText(), false, null);
          }
          yield new StreamEvent(null, "message_stop".equals(type), null);
        }
        case OPENAI -> {
          if (n.has("error")) {
            yield new StreamEvent(null, true, n.path("error").path("message").asText(n.toString()));
          }
          JsonNode choice = n.path("choices").path(0);
          JsonNode content = choice.path("delta").path("content");
          yield new StreamEvent(content.isTextual() ? content.asText() : null, false, null);
        }
        case OLLAMA -> {
          if (n.has("error")) {
            yield new StreamEvent(null, true, n.path("error").asText());
          }
          yield new StreamEvent(n.path("message").path("content").asText(null), n.path("done").asBoolean(), null);
        }
      };
    }
  }
}
