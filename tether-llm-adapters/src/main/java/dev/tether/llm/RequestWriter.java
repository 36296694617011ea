package dev.tether.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.Conversation;
import java.io.IOException;

/** Writes one provider's request body. Implementations are stateless and thread-safe. */
interface RequestWriter {
  /** Writes the whole body; the conversation has passed the profile check already. */
  void write(Conversation conversation, RequestOptions options, JsonOut out) throws IOException;

  /** Writes {@code "model"} when the options name one (all formats but Gemini's, which has it in the URL). */
  static void modelField(RequestOptions options, JsonGenerator g) throws IOException {
    if (options.model() != null) {
      g.writeStringField("model", options.model());
    }
  }

  /**
   * Writes the system prompt, when there is one, as a first {@code {"role":"system","content":...}}
   * message (OpenAI Chat and Ollama; the other formats keep it apart from the messages).
   */
  static void systemMessage(Conversation conversation, JsonGenerator g) throws IOException {
    if (!conversation.systemPrompt().isEmpty()) {
      g.writeStartObject();
      g.writeStringField("role", "system");
      g.writeStringField("content", conversation.systemPrompt());
      g.writeEndObject();
    }
  }

  static RequestWriter of(Provider provider) {
    return switch (provider) {
      case CLAUDE -> new ClaudeWriter();
      case OPENAI_CHAT -> new OpenAiChatWriter();
      case OPENAI_RESPONSES -> new OpenAiResponsesWriter();
      case OLLAMA -> new OllamaWriter();
      case GEMINI -> new GeminiWriter();
    };
  }
}
