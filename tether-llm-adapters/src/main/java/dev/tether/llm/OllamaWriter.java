package dev.tether.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.Role;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Ollama {@code /api/chat}: each message's text in {@code content} (text parts joined by a
 * newline) and its images as bare base64 strings in {@code images}. Tool results become
 * {@code tool} messages naming the tool; their images follow in a user message right after,
 * as for OpenAI Chat, since models reliably see images only on user messages.
 */
final class OllamaWriter implements RequestWriter {
  @Override
  public void write(Conversation conversation, RequestOptions options, JsonOut out) throws IOException {
    JsonGenerator g = out.g;
    Map<String, String> toolNames = Messages.toolNames(conversation);
    g.writeStartObject();
    RequestWriter.modelField(options, g);
    g.writeArrayFieldStart("messages");
    RequestWriter.systemMessage(conversation, g);
    for (Messages.Message message : Messages.unmerged(conversation.turns())) {
      List<Part> rest = new ArrayList<>();
      List<Part.Image> toolImages = new ArrayList<>();
      for (Part part : message.parts()) {
        if (part instanceof Part.ToolResult result) {
          g.writeStartObject();
          g.writeStringField("role", "tool");
          g.writeStringField("content", Messages.toolResultText(result));
          String name = toolNames.get(result.toolUseId());
          if (name != null) {
            g.writeStringField("tool_name", name);
          }
          g.writeEndObject();
          toolImages.addAll(Messages.images(result.content()));
        } else {
          rest.add(part);
        }
      }
      if (rest.isEmpty() && toolImages.isEmpty()) {
        continue;
      }
      List<Part.Image> images = new ArrayList<>(toolImages);
      images.addAll(Messages.images(rest));
      g.writeStartObject();
      g.writeStringField("role", message.role() == Role.USER ? "user" : "assistant");
      g.writeStringField("content", Messages.text(rest));
      if (!images.isEmpty()) {
        g.writeArrayFieldStart("images");
        for (Part.Image image : images) {
          out.base64Value("", image.data());
        }
        g.writeEndArray();
      }
      List<Part.ToolUse> uses = Messages.toolUses(rest);
      if (!uses.isEmpty()) {
        g.writeArrayFieldStart("tool_calls");
        for (Part.ToolUse use : uses) {
          g.writeStartObject();
          g.writeObjectFieldStart("function");
          g.writeStringField("name", use.name());
          g.writeFieldName("arguments");
          out.rawValue(use.input());
          g.writeEndObject();
          g.writeEndObject();
        }
        g.writeEndArray();
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }
}
