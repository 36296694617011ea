package dev.tether.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.Role;
import java.io.IOException;
import java.util.List;

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

  /** Writes one message's parts; the two roles of a format have one each. */
  @FunctionalInterface
  interface MessageWriter {
    void write(List<Part> parts, RequestOptions options, JsonOut out) throws IOException;
  }

  /**
   * Writes the conversation's messages (turns unmerged, see {@link Messages#unmerged}) in order,
   * each through the writer of its role.
   */
  static void messages(Conversation conversation, RequestOptions options, JsonOut out,
      MessageWriter user, MessageWriter assistant) throws IOException {
    for (Messages.Message message : Messages.unmerged(conversation.turns())) {
      (message.role() == Role.USER ? user : assistant).write(message.parts(), options, out);
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
