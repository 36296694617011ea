package dev.tether.chat;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.media.MediaAnswer;
import dev.tether.media.MediaFetchResult;
import dev.tether.media.MediaFetcher;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaReference;
import dev.tether.media.MediaRegistry;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * Answers the agent's {@code media.fetch} frames: each gets exactly one {@code control.media}
 * frame on its session carrying its {@code msg_id} (see {@link MediaFrames}), with the image, the
 * path of the saved file, or a coded error:
 *
 * <ul>
 *   <li>{@code MALFORMED_FRAME}: the payload is not {@code {"ref": "<id>"}};
 *   <li>{@code PERMISSION_DENIED}: the session is not an allowed chat of the channel, or the
 *       reference belongs to another chat (a chat's agent can fetch only that chat's media);
 *   <li>{@code UNKNOWN_REF}, {@code EXPIRED_REF}: from the registry;
 *   <li>{@code DOWNLOAD_TOO_LARGE}: over the channel's download limit, known before any download;
 *   <li>{@code DOWNLOAD_FAILED}: the platform could not deliver it; {@code MEDIA_TYPE_MISMATCH}: the
 *       bytes are not the image they claim to be.
 * </ul>
 *
 * <p>A request without a {@code msg_id} or session cannot be answered and is only logged.
 * {@link #handle} never blocks: the download runs on the fetcher's threads (concurrent requests for
 * one reference share one download) and the answer is sent from there. Thread-safe.
 *
 * @param <C> the channel's chat
 */
public final class MediaFetchAnswers<C> {
  private final BridgeHost host;
  private final ChatSessions<C> sessions;
  private final MediaRegistry registry;
  private final MediaFetcher fetcher;
  private final ChatLog log;

  public MediaFetchAnswers(BridgeHost host, ChatSessions<C> sessions, MediaRegistry registry, MediaFetcher fetcher, ChatLog log) {
    this.host = Objects.requireNonNull(host, "host");
    this.sessions = Objects.requireNonNull(sessions, "sessions");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.fetcher = Objects.requireNonNull(fetcher, "fetcher");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** Starts answering one {@code media.fetch} frame. */
  public void handle(Frame frame) {
    Optional<SessionKey> session = frame.session();
    Optional<String> msgId = frame.msgId().filter(id -> !id.isEmpty());
    if (session.isEmpty() || msgId.isEmpty()) {
      log.warn("skipped media.fetch seq " + frame.seq() + ": it has no " + (session.isEmpty() ? "session" : "msg_id")
          + ", so no answer could reach its sender");
      return;
    }
    String ref;
    try {
      ref = MediaFrames.parseFetchRequest(frame);
    } catch (TetherException e) {
      send(session.get(), msgId.get(), new MediaAnswer.Failed("", e.code(), e.getMessage()));
      return;
    }
    Optional<C> chat = sessions.allowedChat(session.get());
    if (chat.isEmpty()) {
      send(session.get(), msgId.get(), new MediaAnswer.Failed(ref, ErrorCode.PERMISSION_DENIED,
          "media.fetch must be sent on the session of an allowed " + sessions.displayName() + " chat, the one the media came from"));
      return;
    }
    Optional<MediaReference> known = registry.get(ref);
    if (known.isPresent() && !known.get().chat().equals(sessions.mediaOwner(chat.get()))) {
      log.warn("refused media ref:" + ref + " to " + chat.get() + ": it belongs to another chat");
      send(session.get(), msgId.get(), new MediaAnswer.Failed(ref, ErrorCode.PERMISSION_DENIED,
          "media ref:" + ref + " belongs to another chat; a chat can fetch only its own media"));
      return;
    }
    fetcher.fetch(ref).whenComplete((result, failure) ->
        send(session.get(), msgId.get(), failure == null ? answerOf(result) : failed(ref, failure)));
  }

  private static MediaAnswer answerOf(MediaFetchResult result) {
    if (result instanceof MediaFetchResult.InlineImage inline) {
      return new MediaAnswer.Fetched(inline.ref().id(), inline.ref().mimeType(), inline.image());
    }
    MediaFetchResult.SavedFile saved = (MediaFetchResult.SavedFile) result;
    return new MediaAnswer.Saved(saved.ref().id(), saved.ref().mimeType(), saved.path().toString(), saved.size());
  }

  private MediaAnswer failed(String ref, Throwable failure) {
    Throwable e = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    if (e instanceof TetherException t) {
      return new MediaAnswer.Failed(ref, t.code(), t.getMessage());
    }
    log.warn("media ref:" + ref + " could not be downloaded: " + log.describe(e));
    return new MediaAnswer.Failed(ref, ErrorCode.DOWNLOAD_FAILED, "media ref:" + ref
        + " could not be downloaded from " + sessions.displayName() + " (" + log.describe(e) + "); try again later");
  }

  private void send(SessionKey session, String msgId, MediaAnswer answer) {
    Frame frame = MediaFrames.answer(session, msgId, answer);
    host.client().send(host.instance(), frame).whenComplete((receipt, failure) -> {
      if (failure != null) {
        log.warn("cannot answer media.fetch " + msgId + " in " + session + ": " + log.describe(failure));
      } else if (answer instanceof MediaAnswer.Failed f) {
        log.info("media.fetch " + msgId + " in " + session + ": " + f.code());
      } else {
        log.info("media.fetch " + msgId + " in " + session + ": ref:" + answer.ref() + " delivered");
      }
    });
  }
}
