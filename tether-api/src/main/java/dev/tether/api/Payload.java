package dev.tether.api;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A typed view of a frame's payload. {@link Frame#payloadView()} parses one on demand;
 * {@link Frame#of(SessionKey, String, Payload)} serialises one canonically.
 *
 * <p>Every variant keeps the payload fields it does not know in {@code extra}, so that reading,
 * changing and writing a payload loses nothing. All variants are immutable; lists and maps are
 * copied on construction.
 */
public sealed interface Payload
    permits Payload.UserMessage,
        Payload.AssistantDelta,
        Payload.AssistantDone,
        Payload.AssistantMessage,
        Payload.Presence,
        Payload.Cancel,
        Payload.Other {

  /** The frame type that carries this payload. */
  String frameType();

  /** Payload fields this SDK does not model, by name, in their original order. */
  Map<String, RawJson> extra();

  /** The images this payload carries; empty for the types that cannot carry any. */
  default List<Image> images() {
    return List.of();
  }

  /**
   * {@code user.message}: text from a person, possibly with images.
   *
   * @param text required; an image-only message has {@code ""}
   * @param images at most {@link Limits#maxImagesPerMessage()} images (checked by the validator)
   * @param user who sent it, when the channel knows
   */
  record UserMessage(String text, List<Image> images, Optional<User> user, Map<String, RawJson> extra)
      implements Payload {
    public UserMessage {
      Objects.requireNonNull(text, "text");
      images = List.copyOf(images);
      Objects.requireNonNull(user, "user");
      extra = Extras.copy(extra, "text", "images", "user");
    }

    public static UserMessage of(String text, List<Image> images) {
      return new UserMessage(text, images, Optional.empty(), Map.of());
    }

    @Override
    public String frameType() {
      return FrameTypes.USER_MESSAGE;
    }
  }

  /** {@code assistant.delta}: a streamed piece of the reply. Never carries images. */
  record AssistantDelta(String text, Map<String, RawJson> extra) implements Payload {
    public AssistantDelta {
      Objects.requireNonNull(text, "text");
      extra = Extras.copy(extra, "text", "images");
    }

    public static AssistantDelta of(String text) {
      return new AssistantDelta(text, Map.of());
    }

    @Override
    public String frameType() {
      return FrameTypes.ASSISTANT_DELTA;
    }
  }

  /** {@code assistant.done}: the complete reply to a user message, possibly with images. */
  record AssistantDone(String text, List<Image> images, Map<String, RawJson> extra) implements Payload {
    public AssistantDone {
      Objects.requireNonNull(text, "text");
      images = List.copyOf(images);
      extra = Extras.copy(extra, "text", "images");
    }

    public static AssistantDone of(String text, List<Image> images) {
      return new AssistantDone(text, images, Map.of());
    }

    @Override
    public String frameType() {
      return FrameTypes.ASSISTANT_DONE;
    }
  }

  /** {@code assistant.message}: a message the agent starts on its own, possibly with images. */
  record AssistantMessage(String text, List<Image> images, Map<String, RawJson> extra) implements Payload {
    public AssistantMessage {
      Objects.requireNonNull(text, "text");
      images = List.copyOf(images);
      extra = Extras.copy(extra, "text", "images");
    }

    public static AssistantMessage of(String text, List<Image> images) {
      return new AssistantMessage(text, images, Map.of());
    }

    @Override
    public String frameType() {
      return FrameTypes.ASSISTANT_MESSAGE;
    }
  }

  /** {@code status.presence}: what the agent is doing, such as {@code thinking}. */
  record Presence(String state, Map<String, RawJson> extra) implements Payload {
    public static final String THINKING = "thinking";
    public static final String IDLE = "idle";

    public Presence {
      Objects.requireNonNull(state, "state");
      extra = Extras.copy(extra, "state");
    }

    public static Presence of(String state) {
      return new Presence(state, Map.of());
    }

    @Override
    public String frameType() {
      return FrameTypes.STATUS_PRESENCE;
    }
  }

  /** {@code control.cancel}: stop working on the request named by the frame's {@code msg_id}. */
  record Cancel(Map<String, RawJson> extra) implements Payload {
    public Cancel {
      extra = Extras.copy(extra);
    }

    @Override
    public String frameType() {
      return FrameTypes.CONTROL_CANCEL;
    }
  }

  /** Any other frame type: the payload is carried untouched. */
  record Other(String frameType, RawJson raw) implements Payload {
    public Other {
      Objects.requireNonNull(frameType, "frameType");
      Objects.requireNonNull(raw, "raw");
    }

    @Override
    public Map<String, RawJson> extra() {
      return Map.of();
    }
  }
}
