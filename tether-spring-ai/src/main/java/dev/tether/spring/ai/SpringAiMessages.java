package dev.tether.spring.ai;

import dev.tether.api.Conversation;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import dev.tether.api.TetherException;
import dev.tether.api.Turn;
import dev.tether.images.ImageHeaders;
import dev.tether.api.blobs.BlobKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeType;

/**
 * Spring AI {@link Message}s to and from tether's {@link Conversation}. Stateless and thread-safe.
 *
 * <p>What maps, both ways: {@link SystemMessage}s are the system prompt; a {@link UserMessage} is
 * a user turn of its text and images; an {@link AssistantMessage} is an assistant turn of its text,
 * its images and one tool use per tool call; a {@link ToolResponseMessage} is a user turn with one
 * tool result per response. Every image {@link Media} made here has its bytes, its MIME type from
 * the bytes' signature and {@code id} = the image's blob key ({@link BlobKey}, content address).
 *
 * <p>What is lost, on purpose: several system messages become one prompt (joined by a blank
 * line); message metadata, a media's name and a tool call's type are not kept (the type becomes
 * {@code function}); Spring AI tool responses are text, so a tool result's images follow it in a
 * user message of their own (introduced by a text naming the tool call), and a tool result's error
 * flag becomes an {@code "Error: "} prefix; empty tool arguments become {@code {}}. Media tether
 * cannot hold (a URL, or bytes that are not a PNG, JPEG, GIF or WebP image) are refused with an
 * IllegalArgumentException naming the message.
 */
public final class SpringAiMessages {
  private SpringAiMessages() {}

  /**
   * The messages as a conversation.
   *
   * @throws IllegalArgumentException for media tether cannot hold, or tool arguments that are not JSON
   */
  public static Conversation toConversation(List<? extends Message> messages) {
    List<String> system = new ArrayList<>();
    List<Turn> turns = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      Message m = messages.get(i);
      if (m instanceof SystemMessage s) {
        system.add(s.getText());
      } else if (m instanceof UserMessage u) {
        List<Part> parts = new ArrayList<>();
        if (u.getText() != null && !u.getText().isEmpty()) {
          parts.add(new Part.Text(u.getText()));
        }
        for (Media media : u.getMedia()) {
          parts.add(image(media, i));
        }
        turns.add(new Turn(Role.USER, parts));
      } else if (m instanceof AssistantMessage a) {
        List<Part> parts = new ArrayList<>();
        if (a.getText() != null && !a.getText().isEmpty()) {
          parts.add(new Part.Text(a.getText()));
        }
        for (Media media : a.getMedia()) {
          parts.add(image(media, i));
        }
        for (AssistantMessage.ToolCall call : a.getToolCalls()) {
          parts.add(new Part.ToolUse(call.id(), call.name(), arguments(call, i)));
        }
        turns.add(new Turn(Role.ASSISTANT, parts));
      } else if (m instanceof ToolResponseMessage r) {
        List<Part> parts = new ArrayList<>();
        for (ToolResponseMessage.ToolResponse response : r.getResponses()) {
          String data = response.responseData() == null ? "" : response.responseData();
          parts.add(new Part.ToolResult(response.id(), List.of(new Part.Text(data)), false));
        }
        turns.add(new Turn(Role.USER, parts));
      } else {
        throw new IllegalArgumentException("message " + i + ": " + m.getMessageType() + " messages have no tether form");
      }
    }
    return new Conversation(String.join("\n\n", system), turns);
  }

  private static RawJson arguments(AssistantMessage.ToolCall call, int index) {
    if (call.arguments() == null || call.arguments().isBlank()) {
      return RawJson.EMPTY_OBJECT;
    }
    try {
      return RawJson.of(call.arguments());
    } catch (TetherException e) {
      throw new IllegalArgumentException("message " + index + ": the arguments of tool call " + call.id()
          + " are not JSON: " + e.getMessage(), e);
    }
  }

  /** An image {@link Media} as an image part; its type from its bytes. */
  static Part.Image image(Media media, int index) {
    if (!(media.getData() instanceof byte[] bytes)) {
      throw new IllegalArgumentException("message " + index + ": media given by URL or resource (" + media.getMimeType()
          + ") has no tether form; read it and pass its bytes");
    }
    MediaType type = imageType(bytes).orElseThrow(() -> new IllegalArgumentException("message " + index + ": "
        + media.getMimeType() + " media has no tether form (PNG, JPEG, GIF and WebP images only)"));
    return new Part.Image(type, ImageData.ofBytes(bytes));
  }

  /** The image type of {@code bytes} by their signature, if they are an image tether takes. */
  static Optional<MediaType> imageType(byte[] bytes) {
    return ImageHeaders.signature(bytes, 0, Math.min(bytes.length, 16));
  }

  /** The image as Spring AI media: its bytes, MIME type and {@code id} = its blob key. */
  public static Media media(Part.Image image) {
    byte[] bytes = image.data().toByteArray();
    return Media.builder().mimeType(MimeType.valueOf(image.mediaType().mimeType())).data(bytes)
        .id(BlobKey.forContent(bytes, image.mediaType()).toString()).build();
  }

  /**
   * The conversation as Spring AI messages: a system message first when there is a prompt, then
   * one message per turn (a user turn with tool results: a tool response message, then a user
   * message with the results' images, then one with the rest).
   */
  public static List<Message> toMessages(Conversation conversation) {
    Map<String, String> toolNames = new HashMap<>();
    List<Message> out = new ArrayList<>();
    if (!conversation.systemPrompt().isEmpty()) {
      out.add(new SystemMessage(conversation.systemPrompt()));
    }
    for (Turn turn : conversation.turns()) {
      StringBuilder text = new StringBuilder();
      List<Media> media = new ArrayList<>();
      if (turn.role() == Role.ASSISTANT) {
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        for (Part p : turn.parts()) {
          if (p instanceof Part.Text t) {
            text.append(t.text());
          } else if (p instanceof Part.Image i) {
            media.add(media(i));
          } else if (p instanceof Part.ToolUse u) {
            toolNames.put(u.id(), u.name());
            calls.add(new AssistantMessage.ToolCall(u.id(), "function", u.name(), u.input().toString()));
          }
        }
        out.add(AssistantMessage.builder().content(text.toString()).media(media).toolCalls(calls).build());
        continue;
      }
      List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
      List<Media> resultImages = new ArrayList<>();
      StringBuilder resultText = new StringBuilder();
      for (Part p : turn.parts()) {
        if (p instanceof Part.ToolResult r) {
          StringBuilder data = new StringBuilder(r.isError() ? "Error: " : "");
          List<Media> images = new ArrayList<>();
          for (Part inner : r.content()) {
            if (inner instanceof Part.Text t) {
              data.append(t.text());
            } else if (inner instanceof Part.Image i) {
              images.add(media(i));
            }
          }
          responses.add(new ToolResponseMessage.ToolResponse(r.toolUseId(),
              toolNames.getOrDefault(r.toolUseId(), "unknown"), data.toString()));
          if (!images.isEmpty()) {
            resultText.append(resultText.isEmpty() ? "" : "\n").append("Images from tool call ").append(r.toolUseId()).append(':');
            resultImages.addAll(images);
          }
        } else if (p instanceof Part.Text t) {
          text.append(t.text());
        } else if (p instanceof Part.Image i) {
          media.add(media(i));
        }
      }
      if (!responses.isEmpty()) {
        out.add(ToolResponseMessage.builder().responses(responses).build());
      }
      if (!resultImages.isEmpty()) {
        out.add(UserMessage.builder().text(resultText.toString()).media(resultImages).build());
      }
      if (responses.isEmpty() || !text.isEmpty() || !media.isEmpty()) {
        out.add(UserMessage.builder().text(text.toString()).media(media).build());
      }
    }
    return out;
  }
}
