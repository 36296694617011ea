package dev.tether.llm;

/** The request formats this module writes. A closed set: each has one writer. */
public enum Provider {
  /**
   * Anthropic Messages API ({@code POST /v1/messages}): {@code system} apart, consecutive turns of
   * the same role merged, tool results first in their user message, images as base64 {@code image}
   * blocks, also inside {@code tool_result}. Empty text parts are dropped (Claude rejects them);
   * a turn of empty text only is refused by {@link LlmRequest#prepare}.
   */
  CLAUDE("Claude Messages"),
  /**
   * OpenAI Chat Completions ({@code POST /v1/chat/completions}): images as {@code image_url} parts
   * with a data URI and {@code detail}. Tool messages take text only, so a tool result becomes a
   * {@code tool} message (its text, "Error: " in front when the tool failed, and a note that images
   * follow) and its images follow in a user message right after the turn's tool messages,
   * introduced by "Images from tool call &lt;id&gt;:".
   */
  OPENAI_CHAT("OpenAI Chat Completions"),
  /**
   * OpenAI Responses ({@code POST /v1/responses}): {@code instructions}, {@code input_image} with
   * {@code image_url} as a data URI string plus {@code detail}; a {@code function_call_output}
   * carries its images as {@code input_image} items in its {@code output} list.
   */
  OPENAI_RESPONSES("OpenAI Responses"),
  /**
   * Ollama ({@code POST /api/chat}): bare base64 strings in a message's {@code images}; tool
   * results are {@code tool} messages and their images follow in a user message, as for OpenAI
   * Chat. PNG and JPEG; WebP only with {@link ProviderProfile#ollamaWithWebp()}.
   */
  OLLAMA("Ollama /api/chat"),
  /**
   * Google Gemini ({@code generateContent}): {@code system_instruction}, {@code contents} with
   * {@code inline_data} parts; a tool result is a {@code function_response} followed by its images
   * as {@code inline_data}. No GIF (fitting converts it to PNG). The model is named in the URL.
   * Empty text parts are dropped, and a turn of empty text only is refused by
   * {@link LlmRequest#prepare}, as for Claude.
   */
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
