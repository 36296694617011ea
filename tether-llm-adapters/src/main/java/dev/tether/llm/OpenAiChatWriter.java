package dev.tether.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.Conversation;
import dev.tether.api.Part;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI Chat Completions: the system prompt as the first message, images as {@code image_url}
 * parts with a data URI and {@code detail}, tool uses as {@code tool_calls}.
 *
 * <p>Tool messages take text only. So a user turn's tool results become {@code tool} messages
 * (text, "Error: " in front when the tool failed, and a note when images follow), and their
 * images follow in one user message right after them, each group introduced by a text part
 * naming the tool call, followed by the turn's own text and images.
 */
final class OpenAiChatWriter implements RequestWriter {
  @Override
  public void write(Conversation conversation, RequestOptions options, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    g.writeStartObject();
    RequestWriter.modelField(options, g);
    g.writeArrayFieldStart("messages");
    RequestWriter.systemMessage(conversation, g);
    ImageDetails details = ImageDetails.of(conversation, options);
    RequestWriter.messages(conversation, options, out, (parts, o, j) -> user(parts, details, j), OpenAiChatWriter::assistant);
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void user(List<Part> parts, ImageDetails details, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    List<Part> content = new ArrayList<>();
    for (Part part : parts) {
      if (part instanceof Part.ToolResult result) {
        g.writeStartObject();
        g.writeStringField("role", "tool");
        g.writeStringField("tool_call_id", result.toolUseId());
        g.writeStringField("content", Messages.toolResultText(result));
        g.writeEndObject();
        List<Part.Image> images = Messages.images(result.content());
        if (!images.isEmpty()) {
          content.add(new Part.Text("Images from tool call " + result.toolUseId() + ":"));
          content.addAll(images);
        }
      } else {
        content.add(part);
      }
    }
    if (content.isEmpty()) {
      return;
    }
    g.writeStartObject();
    g.writeStringField("role", "user");
    g.writeArrayFieldStart("content");
    for (Part part : content) {
      g.writeStartObject();
      if (part instanceof Part.Text text) {
        g.writeStringField("type", "text");
        g.writeStringField("text", text.text());
      } else if (part instanceof Part.Image image) {
        g.writeStringField("type", "image_url");
        g.writeObjectFieldStart("image_url");
        out.dataUriField("url", image.mediaType(), image.data());
        g.writeStringField("detail", details.of(image).wireName());
        g.writeEndObject();
      } else {
        throw new IllegalArgumentException("a user turn cannot hold " + part.getClass().getSimpleName());
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void assistant(List<Part> parts, RequestOptions options, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    g.writeStartObject();
    g.writeStringField("role", "assistant");
    String text = Messages.text(parts);
    List<Part.ToolUse> uses = Messages.toolUses(parts);
    if (!text.isEmpty() || uses.isEmpty()) {
      g.writeStringField("content", text);
    }
    if (!uses.isEmpty()) {
      g.writeArrayFieldStart("tool_calls");
      for (Part.ToolUse use : uses) {
        g.writeStartObject();
        g.writeStringField("id", use.id());
        g.writeStringField("type", "function");
        g.writeObjectFieldStart("function");
        g.writeStringField("name", use.name());
        g.writeStringField("arguments", use.input().toString());
        g.writeEndObject();
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }
}
