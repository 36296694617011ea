package dev.tether.api;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Factories for the frames hosts and agents send most often. Every frame gets version 1 and the
 * current time; payloads are serialised canonically. Limits are not checked here: pass the frame
 * to the validator in {@code tether-images} (or build images with its producer helpers).
 */
public final class Frames {
  private Frames() {}

  /** A {@code user.message} from the host, with a fresh {@code host-<nanos>} id. */
  public static Frame hostUserMessage(String sessionId, String text, List<Image> images) {
    return userMessage(SessionKey.host(sessionId), MsgIds.host(), text, images, null);
  }

  /** A {@code user.message} on any channel, attributed to {@code user} when not null. */
  public static Frame userMessage(SessionKey session, String msgId, String text, List<Image> images, User user) {
    Objects.requireNonNull(msgId, "msgId");
    return Frame.of(session, msgId,
        new Payload.UserMessage(text, images, Optional.ofNullable(user), Map.of()));
  }

  /** The {@code assistant.done} that answers the user message {@code replyToMsgId}. */
  public static Frame assistantDone(SessionKey session, String replyToMsgId, String text, List<Image> images) {
    return Frame.of(session, replyToMsgId, Payload.AssistantDone.of(text, images));
  }

  /** One streamed piece of the answer to {@code replyToMsgId}. */
  public static Frame assistantDelta(SessionKey session, String replyToMsgId, String text) {
    return Frame.of(session, replyToMsgId, Payload.AssistantDelta.of(text));
  }

  /** A {@code status.presence} frame, for example {@link Payload.Presence#THINKING}. */
  public static Frame presence(SessionKey session, String replyToMsgId, String state) {
    return Frame.of(session, replyToMsgId, Payload.Presence.of(state));
  }
}
