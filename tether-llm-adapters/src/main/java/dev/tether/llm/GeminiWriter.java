package dev.tether.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.Role;
import java.io.IOException;
import java.util.Map;

/**
 * Gemini {@code generateContent}: {@code system_instruction} apart, {@code contents} with roles
 * {@code user} and {@code model} (consecutive same-role turns merged), images as
 * {@code inline_data}. A tool result is a {@code function_response} whose response is
 * {@code {"output": text}} or {@code {"error": text}}, followed by its images as
 * {@code inline_data} parts of the same content. The model is named in the URL, not the body.
 */
final class GeminiWriter implements RequestWriter {
  @Override
  public void write(Conversation conversation, RequestOptions options, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    Map<String, String> toolNames = Messages.toolNames(conversation);
    g.writeStartObject();
    if (!conversation.systemPrompt().isEmpty()) {
      g.writeObjectFieldStart("system_instruction");
      g.writeArrayFieldStart("parts");
      g.writeStartObject();
      g.writeStringField("text", conversation.systemPrompt());
      g.writeEndObject();
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeArrayFieldStart("contents");
    for (Messages.Message message : Messages.merged(conversation.turns())) {
      g.writeStartObject();
      g.writeStringField("role", message.role() == Role.USER ? "user" : "model");
      g.writeArrayFieldStart("parts");
      for (Part part : message.parts()) {
        if (part instanceof Part.ToolResult result) {
          g.writeStartObject();
          g.writeObjectFieldStart("function_response");
          g.writeStringField("id", result.toolUseId());
          g.writeStringField("name", toolNames.getOrDefault(result.toolUseId(), result.toolUseId()));
          g.writeObjectFieldStart("response");
          g.writeStringField(result.isError() ? "error" : "output", Messages.text(result.content()));
          g.writeEndObject();
          g.writeEndObject();
          g.writeEndObject();
          for (Part.Image image : Messages.images(result.content())) {
            part(image, out);
          }
        } else {
          part(part, out);
        }
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void part(Part part, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    g.writeStartObject();
    if (part instanceof Part.Text text) {
      g.writeStringField("text", text.text());
    } else if (part instanceof Part.Image image) {
      g.writeObjectFieldStart("inline_data");
      g.writeStringField("mime_type", image.mediaType().mimeType());
      out.base64Field("data", "", image.data());
      g.writeEndObject();
    } else if (part instanceof Part.ToolUse use) {
      g.writeObjectFieldStart("function_call");
      g.writeStringField("id", use.id());
      g.writeStringField("name", use.name());
      g.writeFieldName("args");
      out.rawValue(use.input());
      g.writeEndObject();
    } else {
      throw new IllegalStateException("tool results are written by the caller");
    }
    g.writeEndObject();
  }
}
