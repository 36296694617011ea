package dev.tether.telegram.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.TetherClient;
import dev.tether.media.MediaAnswer;
import dev.tether.media.MediaFetchResult;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaReference;
import dev.tether.telegram.TelegramChat;
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
 *   <li>{@code PERMISSION_DENIED}: the session is not an allowed Telegram chat, or the reference
 *       belongs to another chat (a chat's agent can fetch only that chat's media);
 *   <li>{@code UNKNOWN_REF}, {@code EXPIRED_REF}: from the registry;
 *   <li>{@code DOWNLOAD_TOO_LARGE}: over the Bot API's 20 MB, known before any download;
 *   <li>{@code DOWNLOAD_FAILED}: Telegram could not deliver it; {@code MEDIA_TYPE_MISMATCH}: the
 *       bytes are not the image they claim to be.
 * </ul>
 *
 * <p>A request without a {@code msg_id} or session cannot be answered and is only logged.
 * {@link #handle} never blocks: the download runs on the fetcher's threads (concurrent requests for
 * one reference share one download) and the answer is sent from there. Thread-safe.
 */
final class MediaRequests {
  private final TetherClient client;
  private final String instance;
  private final BridgeConfig config;
  private final LazyMedia media;
  private final BridgeLog log;

  MediaRequests(BridgeConfig config, LazyMedia media, BridgeLog log) {
    this.config = Objects.requireNonNull(config, "config");
    this.client = config.client();
    this.instance = config.instance();
    this.media = Objects.requireNonNull(media, "media");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** Starts answering one {@code media.fetch} frame. */
  void handle(Frame frame) {
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
    Optional<TelegramChat> chat = TelegramChat.CHANNEL.equals(session.get().channel())
        ? TelegramChat.parse(session.get().id()) : Optional.empty();
    if (chat.isEmpty() || !config.allowed(chat.get().chatId())) {
      send(session.get(), msgId.get(), new MediaAnswer.Failed(ref, ErrorCode.PERMISSION_DENIED,
          "media.fetch must be sent on the session of an allowed Telegram chat, the one the media came from"));
      return;
    }
    Optional<MediaReference> known = media.registry().get(ref);
    if (known.isPresent() && !known.get().chat().equals(Long.toString(chat.get().chatId()))) {
      log.warn("refused media ref:" + ref + " to " + chat.get() + ": it belongs to another chat");
      send(session.get(), msgId.get(), new MediaAnswer.Failed(ref, ErrorCode.PERMISSION_DENIED,
          "media ref:" + ref + " belongs to another chat; a chat can fetch only its own media"));
      return;
    }
    media.fetcher().fetch(ref).whenComplete((result, failure) ->
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
        + " could not be downloaded from Telegram (" + log.describe(e) + "); try again later");
  }

  private void send(SessionKey session, String msgId, MediaAnswer answer) {
    Frame frame = MediaFrames.answer(session, msgId, answer);
    client.send(instance, frame).whenComplete((receipt, failure) -> {
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
