package dev.tether.spring.ai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.MediaType;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeType;

/**
 * A conversation's messages as JSON with every image {@link Media} replaced by its blob key (the
 * bytes go to the {@link BlobStore} once, content-addressed). Format
 * {@code {"v":1,"id":"<conversation id>","messages":[...]}}; a message is {@code system} (text),
 * {@code user} (text, media), {@code assistant} (text, media, tool calls) or {@code tool}
 * (responses). A media is {@code {"blob"}} for an image, {@code {"mime","base64"}} for other bytes,
 * {@code {"mime","url"}} for a reference; with its {@code name} and (not for images, whose id is
 * their key) {@code id}. Message metadata is not kept. Stateless and thread-safe.
 */
final class MemoryCodec {
  static final ObjectMapper JSON = new ObjectMapper();

  private MemoryCodec() {}

  static byte[] encode(String id, List<Message> messages, BlobStore blobs) throws IOException {
    ObjectNode root = JSON.createObjectNode().put("v", 1).put("id", id);
    ArrayNode out = root.putArray("messages");
    for (int i = 0; i < messages.size(); i++) {
      out.add(message(messages.get(i), i, blobs));
    }
    return JSON.writeValueAsBytes(root);
  }

  private static ObjectNode message(Message m, int index, BlobStore blobs) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    if (m instanceof SystemMessage s) {
      n.put("type", "system").put("text", s.getText());
    } else if (m instanceof UserMessage u) {
      n.put("type", "user").put("text", u.getText());
      media(n.putArray("media"), u.getMedia(), blobs);
    } else if (m instanceof AssistantMessage a) {
      n.put("type", "assistant").put("text", a.getText());
      media(n.putArray("media"), a.getMedia(), blobs);
      ArrayNode calls = n.putArray("tool_calls");
      for (AssistantMessage.ToolCall c : a.getToolCalls()) {
        calls.addObject().put("id", c.id()).put("type", c.type()).put("name", c.name()).put("arguments", c.arguments());
      }
    } else if (m instanceof ToolResponseMessage r) {
      n.put("type", "tool");
      ArrayNode responses = n.putArray("responses");
      for (ToolResponseMessage.ToolResponse t : r.getResponses()) {
        responses.addObject().put("id", t.id()).put("name", t.name()).put("data", t.responseData());
      }
    } else {
      throw new IllegalArgumentException("message " + index + ": " + m.getMessageType() + " messages cannot be stored");
    }
    return n;
  }

  private static void media(ArrayNode out, List<Media> media, BlobStore blobs) throws IOException {
    for (Media m : media) {
      ObjectNode n = out.addObject();
      if (m.getData() instanceof byte[] bytes) {
        Optional<MediaType> image = SpringAiMessages.imageType(bytes);
        if (image.isPresent()) {
          n.put("blob", blobs.put(bytes, image.get()).toString());
        } else {
          n.put("mime", m.getMimeType().toString()).put("base64", Base64.getEncoder().encodeToString(bytes));
          putIfSet(n, "id", m.getId());
        }
      } else {
        n.put("mime", m.getMimeType().toString()).put("url", String.valueOf(m.getData()));
        putIfSet(n, "id", m.getId());
      }
      putIfSet(n, "name", m.getName());
    }
  }

  private static void putIfSet(ObjectNode n, String field, String value) {
    if (value != null) {
      n.put(field, value);
    }
  }

  static List<Message> decode(byte[] json, BlobStore blobs) throws IOException {
    JsonNode root = JSON.readTree(json);
    if (root == null || root.path("v").asInt() != 1) {
      throw new IOException("not a chat memory of version 1");
    }
    List<Message> out = new ArrayList<>();
    for (JsonNode n : root.path("messages")) {
      out.add(message(n, blobs));
    }
    return out;
  }

  /** The conversation id a stored memory names. */
  static String id(byte[] json) throws IOException {
    return JSON.readTree(json).path("id").asText();
  }

  private static Message message(JsonNode n, BlobStore blobs) throws IOException {
    String type = n.path("type").asText();
    switch (type) {
      case "system":
        return new SystemMessage(n.path("text").asText());
      case "user":
        return UserMessage.builder().text(n.path("text").asText()).media(media(n.path("media"), blobs)).build();
      case "assistant": {
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        for (JsonNode c : n.path("tool_calls")) {
          calls.add(new AssistantMessage.ToolCall(c.path("id").asText(), c.path("type").asText(), c.path("name").asText(),
              c.path("arguments").asText()));
        }
        return AssistantMessage.builder().content(n.path("text").asText()).media(media(n.path("media"), blobs))
            .toolCalls(calls).build();
      }
      case "tool": {
        List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
        for (JsonNode r : n.path("responses")) {
          responses.add(new ToolResponseMessage.ToolResponse(r.path("id").asText(), r.path("name").asText(),
              r.path("data").asText()));
        }
        return ToolResponseMessage.builder().responses(responses).build();
      }
      default:
        throw new IOException("a stored message has the unknown type '" + type + "'");
    }
  }

  private static List<Media> media(JsonNode array, BlobStore blobs) throws IOException {
    List<Media> out = new ArrayList<>();
    for (JsonNode m : array) {
      Media.Builder b = Media.builder();
      if (m.hasNonNull("blob")) {
        BlobKey key = BlobKey.of(m.get("blob").asText());
        b.mimeType(MimeType.valueOf(key.mediaType().mimeType())).data(blobs.get(key)).id(key.toString());
      } else {
        b.mimeType(MimeType.valueOf(m.path("mime").asText()));
        if (m.hasNonNull("base64")) {
          b.data(Base64.getDecoder().decode(m.get("base64").asText()));
        } else {
          b.data(m.path("url").asText());
        }
        if (m.hasNonNull("id")) {
          b.id(m.get("id").asText());
        }
      }
      if (m.hasNonNull("name")) {
        b.name(m.get("name").asText());
      }
      out.add(b.build());
    }
    return out;
  }

  /** The blob keys a stored memory refers to, without reading any blob. */
  static void blobKeys(byte[] json, Set<BlobKey> into) throws IOException {
    for (JsonNode blob : JSON.readTree(json).findValues("blob")) {
      BlobKey.parse(blob.asText()).ifPresent(into::add);
    }
  }
}
