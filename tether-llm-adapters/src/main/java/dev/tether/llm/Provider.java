package dev.tether.llm;

/** The request formats this module writes. A closed set: each has one writer. */
public enum Provider {
  /** Anthropic Messages API ({@code POST /v1/messages}). */
  CLAUDE("Claude Messages"),
  /** OpenAI Chat Completions ({@code POST /v1/chat/completions}). */
  OPENAI_CHAT("OpenAI Chat Completions"),
  /** OpenAI Responses ({@code POST /v1/responses}). */
  OPENAI_RESPONSES("OpenAI Responses"),
  /** Ollama ({@code POST /api/chat}). */
  OLLAMA("Ollama /api/chat"),
  /** Google Gemini ({@code generateContent}). */
  GEMINI("Gemini generateContent");

  private final String displayName;

  Provider(String displayName) {
    this.displayName = displayName;
  }

  /** A name for messages, for example {@code Claude Messages}. */
  public String displayName() {
    return displayName;
  }
}
