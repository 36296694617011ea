package dev.tether.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.Conversation;
import dev.tether.api.Part;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI Responses: the system prompt as {@code instructions}; user content as
 * {@code input_text} and {@code input_image} (whose {@code image_url} is a data URI string, not
 * an object); assistant text as an assistant message with string content (every message item
 * says {@code "type":"message"}, which the official SDK needs to tell items apart); tool uses as {@code function_call} items
 * and tool results as {@code function_call_output} items, whose {@code output} is a string, or a
 * list of {@code input_text} and {@code input_image} when the result has images.
 */
final class OpenAiResponsesWriter implements RequestWriter {
  @Override
  public void write(Conversation conversation, RequestOptions options, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    g.writeStartObject();
    RequestWriter.modelField(options, g);
    if (!conversation.systemPrompt().isEmpty()) {
      g.writeStringField("instructions", conversation.systemPrompt());
    }
    g.writeArrayFieldStart("input");
    ImageDetails details = ImageDetails.of(conversation, options);
    RequestWriter.messages(conversation, options, out, (parts, o, j) -> user(parts, details, j), OpenAiResponsesWriter::assistant);
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void user(List<Part> parts, ImageDetails details, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    List<Part> content = new ArrayList<>();
    for (Part part : parts) {
      if (part instanceof Part.ToolResult result) {
        g.writeStartObject();
        g.writeStringField("type", "function_call_output");
        g.writeStringField("call_id", result.toolUseId());
        List<Part.Image> images = Messages.images(result.content());
        if (images.isEmpty()) {
          String text = Messages.text(result.content());
          g.writeStringField("output", result.isError() ? "Error: " + text : text);
        } else {
          g.writeArrayFieldStart("output");
          String text = Messages.text(result.content());
          if (!text.isEmpty() || result.isError()) {
            inputPart(new Part.Text(result.isError() ? "Error: " + text : text), details, out);
          }
          for (Part.Image image : images) {
            inputPart(image, details, out);
          }
          g.writeEndArray();
        }
        g.writeEndObject();
      } else {
        content.add(part);
      }
    }
    if (content.isEmpty()) {
      return;
    }
    g.writeStartObject();
    g.writeStringField("type", "message");
    g.writeStringField("role", "user");
    g.writeArrayFieldStart("content");
    for (Part part : content) {
      inputPart(part, details, out);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void inputPart(Part part, ImageDetails details, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    g.writeStartObject();
    if (part instanceof Part.Text text) {
      g.writeStringField("type", "input_text");
      g.writeStringField("text", text.text());
    } else if (part instanceof Part.Image image) {
      g.writeStringField("type", "input_image");
      out.dataUriField("image_url", image.mediaType(), image.data());
      g.writeStringField("detail", details.of(image).wireName());
    } else {
      throw new IllegalArgumentException("a user turn cannot hold " + part.getClass().getSimpleName());
    }
    g.writeEndObject();
  }

  private static void assistant(List<Part> parts, RequestOptions options, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    String text = Messages.text(parts);
    boolean hasUse = parts.stream().anyMatch(p -> p instanceof Part.ToolUse);
    if (!text.isEmpty() || !hasUse) {
      g.writeStartObject();
      g.writeStringField("type", "message");
      g.writeStringField("role", "assistant");
      g.writeStringField("content", text);
      g.writeEndObject();
    }
    for (Part part : parts) {
      if (part instanceof Part.ToolUse use) {
        g.writeStartObject();
        g.writeStringField("type", "function_call");
        g.writeStringField("call_id", use.id());
        g.writeStringField("name", use.name());
        g.writeStringField("arguments", use.input().toString());
        g.writeEndObject();
      }
    }
  }
}
