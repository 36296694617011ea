package dev.tether.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.tether.api.Conversation;
import dev.tether.api.Frame;
import dev.tether.api.ImageData;
import dev.tether.api.Part;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import dev.tether.api.TetherException;
import dev.tether.api.Turn;
import dev.tether.llm.FitReport;
import dev.tether.llm.ImageDetail;
import dev.tether.llm.LlmRequest;
import dev.tether.llm.ProviderProfile;
import dev.tether.llm.RequestOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * LangChain4j {@link ChatMessage}s to and from tether's {@link Conversation} (turns of text,
 * images, tool uses and tool results) and frames. Stateless and thread-safe.
 *
 * <p>What maps, both ways: {@link SystemMessage}s are the system prompt; a {@link UserMessage}
 * is a user turn of {@link TextContent} and {@link ImageContent}; an {@link AiMessage} is an
 * assistant turn of its text, its images and one tool use per {@link ToolExecutionRequest}; a
 * {@link ToolExecutionResultMessage} is a user turn holding one tool result (its text and images,
 * and whether it is an error). Every {@link ImageContent} made here has its detail set explicitly
 * (the one given, else {@code AUTO}); the detail each image asked for comes back in
 * {@link MappedConversation#imageDetails()}.
 *
 * <p>What is lost, on purpose: several system messages become one prompt (joined by a blank line)
 * and a system message's place in the list is not kept; a user message's {@code name}, any
 * message's attributes and an AI message's thinking are dropped; LangChain4j's {@code MEDIUM} and
 * {@code ULTRA_HIGH} details become {@code AUTO} and {@code HIGH}; empty or missing tool arguments
 * become {@code {}}; a tool result's tool name is taken from the tool use it answers (or
 * {@code "unknown"} when that is not in the list); a user turn that mixes tool results and content
 * becomes several messages. Only base64 images map: an image given by URL, audio, video and PDF
 * content are refused with an IllegalArgumentException naming the message, since tether never
 * fetches on a caller's behalf. An image's media type is taken from its bytes, not its declaration.
 */
public final class LangChain4jMessages {
  private LangChain4jMessages() {}

  /**
   * The messages as a conversation, with the detail of each image.
   *
   * @throws IllegalArgumentException for content tether cannot hold (see the class comment), or
   *     tool arguments that are not JSON
   */
  public static MappedConversation toConversation(List<? extends ChatMessage> messages) {
    List<String> system = new ArrayList<>();
    List<Turn> turns = new ArrayList<>();
    Map<Integer, ImageDetail> details = new HashMap<>();
    int[] images = {0};
    for (int i = 0; i < messages.size(); i++) {
      ChatMessage m = Objects.requireNonNull(messages.get(i), "message");
      if (m instanceof SystemMessage s) {
        system.add(s.text());
      } else if (m instanceof UserMessage u) {
        turns.add(new Turn(Role.USER, contents(u.contents(), i, images, details)));
      } else if (m instanceof AiMessage a) {
        turns.add(new Turn(Role.ASSISTANT, ai(a, i, images, details)));
      } else if (m instanceof ToolExecutionResultMessage r) {
        List<Part> content = r.contents() == null || r.contents().isEmpty()
            ? List.of(new Part.Text(r.text() == null ? "" : r.text()))
            : contents(r.contents(), i, images, details);
        turns.add(new Turn(Role.USER, List.of(new Part.ToolResult(r.id(), content, Boolean.TRUE.equals(r.isError())))));
      } else {
        throw new IllegalArgumentException("message " + i + ": " + m.type() + " messages have no tether form");
      }
    }
    return new MappedConversation(new Conversation(String.join("\n\n", system), turns), details);
  }

  private static List<Part> ai(AiMessage a, int index, int[] images, Map<Integer, ImageDetail> details) {
    List<Part> parts = new ArrayList<>();
    if (a.text() != null) {
      parts.add(new Part.Text(a.text()));
    }
    for (Image image : a.images()) {
      parts.add(image(image, index));
      images[0]++;
    }
    for (ToolExecutionRequest r : a.toolExecutionRequests()) {
      parts.add(new Part.ToolUse(r.id(), r.name(), arguments(r, index)));
    }
    return parts;
  }

  private static RawJson arguments(ToolExecutionRequest r, int index) {
    if (r.arguments() == null || r.arguments().isBlank()) {
      return RawJson.EMPTY_OBJECT;
    }
    try {
      return RawJson.of(r.arguments());
    } catch (TetherException e) {
      throw new IllegalArgumentException("message " + index + ": the arguments of tool call " + r.id()
          + " are not JSON: " + e.getMessage(), e);
    }
  }

  private static List<Part> contents(List<Content> contents, int index, int[] images, Map<Integer, ImageDetail> details) {
    List<Part> parts = new ArrayList<>(contents.size());
    for (Content c : contents) {
      if (c instanceof TextContent t) {
        parts.add(new Part.Text(t.text()));
      } else if (c instanceof ImageContent ic) {
        parts.add(image(ic.image(), index));
        details.put(images[0]++, Details.ours(ic.detailLevel()));
      } else {
        throw new IllegalArgumentException("message " + index + ": " + c.type() + " content has no tether form"
            + " (text and base64 images only)");
      }
    }
    return parts;
  }

  /** A base64 image, its type from its bytes. */
  static Part.Image image(Image image, int index) {
    if (image.base64Data() == null) {
      throw new IllegalArgumentException("message " + index + ": an image given by URL (" + image.url()
          + ") has no tether form; fetch it and pass its base64");
    }
    ImageData data = ImageData.ofBase64(image.base64Data());
    return new Part.Image(ImageTypes.sniff(data.toByteArray(), index), data);
  }

  /** {@link #toMessages(Conversation, Map, ImageDetail)} with every image {@code AUTO}. */
  public static List<ChatMessage> toMessages(Conversation conversation) {
    return toMessages(conversation, Map.of(), ImageDetail.AUTO);
  }

  /**
   * The conversation as LangChain4j messages: a system message first when there is a prompt, then
   * one message per turn (a user turn with tool results: one message per result, then the rest).
   *
   * @param imageDetails each image's detail by index in {@link Conversation#images()} order
   * @param detail the detail of the other images
   */
  public static List<ChatMessage> toMessages(Conversation conversation, Map<Integer, ImageDetail> imageDetails,
      ImageDetail detail) {
    Objects.requireNonNull(detail, "detail");
    Map<String, String> toolNames = new HashMap<>();
    List<ChatMessage> out = new ArrayList<>();
    if (!conversation.systemPrompt().isEmpty()) {
      out.add(SystemMessage.from(conversation.systemPrompt()));
    }
    int[] images = {0};
    for (Turn turn : conversation.turns()) {
      if (turn.role() == Role.ASSISTANT) {
        out.add(aiMessage(turn.parts(), toolNames));
        for (Part p : turn.parts()) {
          if (p instanceof Part.Image) {
            images[0]++;
          }
        }
        continue;
      }
      List<Content> contents = new ArrayList<>();
      for (Part p : turn.parts()) {
        if (p instanceof Part.ToolResult r) {
          List<Content> inner = contents(r.content(), images, imageDetails, detail);
          out.add(ToolExecutionResultMessage.builder().id(r.toolUseId())
              .toolName(toolNames.getOrDefault(r.toolUseId(), "unknown")).contents(inner)
              .isError(r.isError()).build());
        } else {
          contents.addAll(contents(List.of(p), images, imageDetails, detail));
        }
      }
      if (!contents.isEmpty()) {
        out.add(UserMessage.from(contents));
      }
    }
    return out;
  }

  private static AiMessage aiMessage(List<Part> parts, Map<String, String> toolNames) {
    StringBuilder text = null;
    List<Image> images = new ArrayList<>();
    List<ToolExecutionRequest> requests = new ArrayList<>();
    for (Part p : parts) {
      if (p instanceof Part.Text t) {
        text = text == null ? new StringBuilder(t.text()) : text.append(t.text());
      } else if (p instanceof Part.Image i) {
        images.add(theirs(i));
      } else if (p instanceof Part.ToolUse u) {
        toolNames.put(u.id(), u.name());
        requests.add(ToolExecutionRequest.builder().id(u.id()).name(u.name()).arguments(u.input().toString()).build());
      }
    }
    AiMessage.Builder b = AiMessage.builder().text(text == null ? null : text.toString()).toolExecutionRequests(requests);
    if (!images.isEmpty()) {
      b.attributes(Map.of(AiMessage.GENERATED_IMAGES_KEY, images));
    }
    return b.build();
  }

  private static List<Content> contents(List<Part> parts, int[] images, Map<Integer, ImageDetail> details, ImageDetail detail) {
    List<Content> out = new ArrayList<>(parts.size());
    for (Part p : parts) {
      if (p instanceof Part.Text t) {
        out.add(TextContent.from(t.text()));
      } else if (p instanceof Part.Image i) {
        out.add(ImageContent.from(theirs(i), Details.theirs(details.getOrDefault(images[0]++, detail))));
      } else {
        throw new IllegalArgumentException("a user turn cannot hold " + p.getClass().getSimpleName());
      }
    }
    return out;
  }

  /** The image as LangChain4j's: base64 and the MIME type; the base64 is made here, at the edge. */
  static Image theirs(Part.Image image) {
    return Image.builder().base64Data(image.data().base64()).mimeType(image.mediaType().mimeType()).build();
  }

  /**
   * A {@code user.message} frame as a {@link UserMessage}, or an {@code assistant.message} or
   * {@code assistant.done} frame as an {@link AiMessage}; images with detail {@code detail}.
   *
   * @throws IllegalArgumentException for any other frame type
   */
  public static ChatMessage toMessage(Frame frame, ImageDetail detail) {
    Payload payload = frame.payloadView();
    if (payload instanceof Payload.UserMessage u) {
      List<Part> parts = new ArrayList<>();
      if (!u.text().isEmpty()) {
        parts.add(new Part.Text(u.text()));
      }
      u.images().forEach(i -> parts.add(Part.Image.of(i)));
      return toMessages(new Conversation("", List.of(new Turn(Role.USER, parts))), Map.of(), detail).get(0);
    }
    String text;
    List<dev.tether.api.Image> images;
    if (payload instanceof Payload.AssistantMessage a) {
      text = a.text();
      images = a.images();
    } else if (payload instanceof Payload.AssistantDone d) {
      text = d.text();
      images = d.images();
    } else {
      throw new IllegalArgumentException("a " + frame.type() + " frame has no LangChain4j message form"
          + " (user.message, assistant.message and assistant.done have)");
    }
    List<Part> parts = new ArrayList<>();
    parts.add(new Part.Text(text));
    images.forEach(i -> parts.add(Part.Image.of(i)));
    return aiMessage(parts, new HashMap<>());
  }

  /**
   * Checks the messages' images against a provider's limits, as they would be sent, and estimates
   * their tokens: the messages as a request of {@link LlmRequest#prepare}.
   *
   * @throws dev.tether.llm.ImageRuleException naming the first image that breaks a rule
   */
  public static FitReport check(List<? extends ChatMessage> messages, ProviderProfile profile) {
    MappedConversation mapped = toConversation(messages);
    return LlmRequest.prepare(profile, mapped.conversation(), mapped.options(RequestOptions.defaults())).fitReport();
  }
}
