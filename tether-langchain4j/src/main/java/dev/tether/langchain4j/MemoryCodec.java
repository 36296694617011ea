package dev.tether.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.ImageContent.DetailLevel;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.tether.api.MediaType;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A memory's messages as JSON with every base64 image replaced by its blob key: the image bytes go
 * to the {@link BlobStore} (content-addressed, so stored once however often they recur) and come
 * back as base64 only when read. Format {@code {"v":1,"id":"<memory id>","messages":[...]}}; each
 * message is {@code system} (text), {@code user} (name, contents), {@code ai} (text, thinking,
 * images, tool calls) or {@code tool_result} (id, tool name, error flag, text, contents); a content
 * is {@code {"text"}}, {@code {"blob","detail"}} or {@code {"url","mime","detail"}}. Attributes are
 * not kept. Stateless and thread-safe.
 */
final class MemoryCodec {
  static final ObjectMapper JSON = new ObjectMapper();

  private MemoryCodec() {}

  static byte[] encode(String id, List<ChatMessage> messages, BlobStore blobs) throws IOException {
    ObjectNode root = JSON.createObjectNode().put("v", 1).put("id", id);
    ArrayNode out = root.putArray("messages");
    for (int i = 0; i < messages.size(); i++) {
      out.add(message(messages.get(i), i, blobs));
    }
    return JSON.writeValueAsBytes(root);
  }

  private static ObjectNode message(ChatMessage m, int index, BlobStore blobs) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    if (m instanceof SystemMessage s) {
      n.put("type", "system").put("text", s.text());
    } else if (m instanceof UserMessage u) {
      n.put("type", "user");
      if (u.name() != null) {
        n.put("name", u.name());
      }
      contents(n.putArray("contents"), u.contents(), index, blobs);
    } else if (m instanceof AiMessage a) {
      n.put("type", "ai");
      if (a.text() != null) {
        n.put("text", a.text());
      }
      if (a.thinking() != null) {
        n.put("thinking", a.thinking());
      }
      ArrayNode images = n.putArray("images");
      for (Image image : a.images()) {
        images.add(image(image, null, index, blobs));
      }
      ArrayNode calls = n.putArray("tool_calls");
      for (ToolExecutionRequest r : a.toolExecutionRequests()) {
        ObjectNode c = calls.addObject().put("id", r.id()).put("name", r.name());
        if (r.arguments() != null) {
          c.put("arguments", r.arguments());
        }
      }
    } else if (m instanceof ToolExecutionResultMessage r) {
      n.put("type", "tool_result").put("id", r.id()).put("tool_name", r.toolName());
      if (r.isError() != null) {
        n.put("is_error", r.isError());
      }
      if (r.contents() != null && !r.contents().isEmpty()) {
        contents(n.putArray("contents"), r.contents(), index, blobs);
      } else if (r.text() != null) {
        n.put("text", r.text());
      }
    } else {
      throw new IllegalArgumentException("message " + index + ": " + m.type() + " messages cannot be stored");
    }
    return n;
  }

  private static void contents(ArrayNode out, List<Content> contents, int index, BlobStore blobs) throws IOException {
    for (Content c : contents) {
      if (c instanceof TextContent t) {
        out.addObject().put("text", t.text());
      } else if (c instanceof ImageContent ic) {
        out.add(image(ic.image(), ic.detailLevel(), index, blobs));
      } else {
        throw new IllegalArgumentException("message " + index + ": " + c.type() + " content cannot be stored"
            + " (text and images only)");
      }
    }
  }

  private static ObjectNode image(Image image, DetailLevel detail, int index, BlobStore blobs) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    if (image.base64Data() != null) {
      byte[] bytes = Base64.getDecoder().decode(image.base64Data());
      MediaType type = ImageTypes.sniff(bytes, index);
      n.put("blob", blobs.put(bytes, type).toString());
    } else {
      n.put("url", String.valueOf(image.url()));
      if (image.mimeType() != null) {
        n.put("mime", image.mimeType());
      }
    }
    if (detail != null) {
      n.put("detail", detail.name());
    }
    return n;
  }

  static List<ChatMessage> decode(byte[] json, BlobStore blobs) throws IOException {
    JsonNode root = JSON.readTree(json);
    if (root == null || root.path("v").asInt() != 1) {
      throw new IOException("not a chat memory of version 1");
    }
    List<ChatMessage> out = new ArrayList<>();
    for (JsonNode n : root.path("messages")) {
      out.add(message(n, blobs));
    }
    return out;
  }

  private static ChatMessage message(JsonNode n, BlobStore blobs) throws IOException {
    String type = n.path("type").asText();
    switch (type) {
      case "system":
        return SystemMessage.from(n.path("text").asText());
      case "user": {
        UserMessage.Builder b = UserMessage.builder().contents(contents(n.path("contents"), blobs));
        if (n.hasNonNull("name")) {
          b.name(n.get("name").asText());
        }
        return b.build();
      }
      case "ai": {
        List<Image> images = new ArrayList<>();
        for (JsonNode i : n.path("images")) {
          images.add(image(i, blobs));
        }
        List<ToolExecutionRequest> calls = new ArrayList<>();
        for (JsonNode c : n.path("tool_calls")) {
          calls.add(ToolExecutionRequest.builder().id(text(c, "id")).name(text(c, "name")).arguments(text(c, "arguments"))
              .build());
        }
        AiMessage.Builder b = AiMessage.builder().text(text(n, "text")).thinking(text(n, "thinking"))
            .toolExecutionRequests(calls);
        if (!images.isEmpty()) {
          b.attributes(Map.of(AiMessage.GENERATED_IMAGES_KEY, images));
        }
        return b.build();
      }
      case "tool_result": {
        ToolExecutionResultMessage.Builder b = ToolExecutionResultMessage.builder().id(text(n, "id"))
            .toolName(text(n, "tool_name"));
        if (n.has("is_error")) {
          b.isError(n.get("is_error").asBoolean());
        }
        if (n.has("contents")) {
          b.contents(contents(n.get("contents"), blobs));
        } else {
          b.text(text(n, "text"));
        }
        return b.build();
      }
      default:
        throw new IOException("a stored message has the unknown type '" + type + "'");
    }
  }

  private static String text(JsonNode n, String field) {
    return n.hasNonNull(field) ? n.get(field).asText() : null;
  }

  private static List<Content> contents(JsonNode array, BlobStore blobs) throws IOException {
    List<Content> out = new ArrayList<>();
    for (JsonNode c : array) {
      if (c.has("text")) {
        out.add(TextContent.from(c.get("text").asText()));
      } else {
        DetailLevel detail = c.hasNonNull("detail") ? DetailLevel.valueOf(c.get("detail").asText()) : null;
        out.add(detail == null ? ImageContent.from(image(c, blobs)) : ImageContent.from(image(c, blobs), detail));
      }
    }
    return out;
  }

  private static Image image(JsonNode n, BlobStore blobs) throws IOException {
    if (n.hasNonNull("blob")) {
      BlobKey key = BlobKey.of(n.get("blob").asText());
      return Image.builder().base64Data(Base64.getEncoder().encodeToString(blobs.get(key)))
          .mimeType(key.mediaType().mimeType()).build();
    }
    return Image.builder().url(n.path("url").asText()).mimeType(text(n, "mime")).build();
  }

  /** The blob keys a stored memory refers to, without reading any blob. */
  static void blobKeys(byte[] json, Set<BlobKey> into) throws IOException {
    for (JsonNode blob : JSON.readTree(json).findValues("blob")) {
      BlobKey.parse(blob.asText()).ifPresent(into::add);
    }
  }
}
