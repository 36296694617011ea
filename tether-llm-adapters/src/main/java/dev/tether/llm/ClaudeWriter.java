package dev.tether.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.Role;
import java.io.IOException;

/**
 * Claude Messages: {@code system} apart from the messages, consecutive same-role turns merged,
 * tool results first in their user message, images as base64 {@code image} blocks (also inside
 * {@code tool_result}).
 */
final class ClaudeWriter implements RequestWriter {
  @Override
  public void write(Conversation conversation, RequestOptions options, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    g.writeStartObject();
    RequestWriter.modelField(options, g);
    g.writeNumberField("max_tokens", options.maxTokens());
    if (!conversation.systemPrompt().isEmpty()) {
      g.writeStringField("system", conversation.systemPrompt());
    }
    g.writeArrayFieldStart("messages");
    for (Messages.Message message : Messages.merged(conversation.turns())) {
      g.writeStartObject();
      g.writeStringField("role", message.role() == Role.USER ? "user" : "assistant");
      g.writeArrayFieldStart("content");
      for (Part part : message.parts()) {
        block(part, out);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void block(Part part, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    g.writeStartObject();
    if (part instanceof Part.Text text) {
      g.writeStringField("type", "text");
      g.writeStringField("text", text.text());
    } else if (part instanceof Part.Image image) {
      g.writeStringField("type", "image");
      g.writeObjectFieldStart("source");
      g.writeStringField("type", "base64");
      g.writeStringField("media_type", image.mediaType().mimeType());
      out.base64Field("data", "", image.data());
      g.writeEndObject();
    } else if (part instanceof Part.ToolUse use) {
      g.writeStringField("type", "tool_use");
      g.writeStringField("id", use.id());
      g.writeStringField("name", use.name());
      g.writeFieldName("input");
      out.rawValue(use.input());
    } else if (part instanceof Part.ToolResult result) {
      g.writeStringField("type", "tool_result");
      g.writeStringField("tool_use_id", result.toolUseId());
      boolean any = false;
      for (Part inner : result.content()) {
        if (inner instanceof Part.Text t && t.text().isEmpty()) {
          continue;
        }
        if (!any) {
          g.writeArrayFieldStart("content");
          any = true;
        }
        block(inner, out);
      }
      if (any) {
        g.writeEndArray();
      }
      if (result.isError()) {
        g.writeBooleanField("is_error", true);
      }
    }
    g.writeEndObject();
  }
}
