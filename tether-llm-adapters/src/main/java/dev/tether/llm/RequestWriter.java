package dev.tether.llm;

import dev.tether.api.Conversation;
import java.io.IOException;

/** Writes one provider's request body. Implementations are stateless and thread-safe. */
interface RequestWriter {
  /** Writes the whole body; the conversation has passed the profile check already. */
  void write(Conversation conversation, RequestOptions options, JsonOut out) throws IOException;

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
