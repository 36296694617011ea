package dev.tether.whatsapp.internal;

import dev.tether.api.Frame;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.User;
import dev.tether.chat.ChatLog;
import dev.tether.chat.ChatMediaStore;
import dev.tether.chat.HostForwarder;
import dev.tether.chat.SeenIds;
import dev.tether.client.AttachmentInfo;
import dev.tether.images.Images;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaItem;
import dev.tether.media.MediaKind;
import dev.tether.media.MediaReference;
import dev.tether.whatsapp.WhatsAppChat;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * WhatsApp to tether: turns each customer message of an allowed number into one
 * {@code user.message} frame on session {@code whatsapp/<wa_id>} and sends it to the host
 * ({@link HostForwarder}). Other numbers are ignored (logged once); a message id seen before
 * (WhatsApp redelivers what was not answered 200 in time) is dropped.
 *
 * <p>Media (image, document, audio, voice, video, sticker): lazy, it becomes a {@code wa_}
 * reference carrying the media id, with a placeholder (type and file name from the webhook; the
 * webhook gives no size), nothing downloaded; eager, images are resolved and downloaded at once
 * and other media stored as session attachments. A document whose name is not a plain file name is
 * refused with a line saying so. Runs on one thread; not thread-safe.
 */
final class WhatsAppIngress {
  /** How many delivery ids are remembered across restarts ({@link SeenIds}). */
  static final int MAX_REMEMBERED = 10_000;
  private static final long HOST_TIMEOUT_SECONDS = 120;

  private final WhatsAppConfig config;
  private final GraphApi api;
  private final ChatMediaStore media;
  private final HostForwarder forwarder;
  private final ChatLog log;
  private final SeenIds seen;
  private final Map<String, Boolean> refused = bounded();

  WhatsAppIngress(WhatsAppConfig config, GraphApi api, ChatMediaStore media, HostForwarder forwarder, SeenIds seen, ChatLog log) {
    this.seen = Objects.requireNonNull(seen, "seen");
    this.config = Objects.requireNonNull(config, "config");
    this.api = Objects.requireNonNull(api, "api");
    this.media = Objects.requireNonNull(media, "media");
    this.forwarder = Objects.requireNonNull(forwarder, "forwarder");
    this.log = Objects.requireNonNull(log, "log");
  }

  void handle(WhatsAppMessage m) throws IOException {
    config.listener().received(1);
    if (!config.allowed(m.from()) || !WhatsAppChat.isWaId(m.from())) {
      if (refused.put(m.from(), Boolean.TRUE) == null) {
        log.info("ignored messages from WhatsApp number " + m.from() + ": it is not in the allowed numbers");
      }
      return;
    }
    if (m.id().isEmpty() || !seen.firstTime(m.id())) {
      log.info("skipped a repeated delivery of WhatsApp message " + m.id());
      return;
    }
    WhatsAppChat chat = new WhatsAppChat(m.from());
    SessionKey session = new SessionKey(WhatsAppChat.CHANNEL, chat.waId());
    List<String> lines = new ArrayList<>();
    List<Image> images = new ArrayList<>();
    Map<String, RawJson> extra = new LinkedHashMap<>();
    WhatsAppMessage.Media item = m.media();
    String caption = config.lazy() ? ChatMediaStore.safeText(m.text()) : m.text();
    if (item != null && !plainName(item.fileName())) {
      lines.add("(A file was not passed on: its name is not a plain file name.)");
    } else if (item != null && item.mediaId().isEmpty()) {
      lines.add("(A file was not passed on: WhatsApp gave no media id.)");
    } else if (item != null && config.lazy()) {
      MediaReference ref = MediaReference.builder(ChatMediaStore.newId("wa_"), WhatsAppChat.CHANNEL, item.kind(),
              ChatMediaStore.mimeOr(item.mimeType(), "application/octet-stream"))
          .chat(chat.waId()).messageId(m.id()).fileName(item.fileName()).size(-1)
          .downloadInfo(Map.of(WhatsAppDownloader.MEDIA_ID, item.mediaId()))
          .createdAt(config.clock().instant()).ttl(config.mediaTtl()).build();
      media.register(ref);
      media.save();
      extra.put(MediaFrames.MEDIA_FIELD, MediaFrames.mediaField(List.of(MediaItem.of(ref))));
      lines.add(ref.placeholder().format());
    } else if (item != null) {
      eager(chat, session, item, lines, images, extra);
    }
    if (!caption.isBlank()) {
      lines.add(caption);
    }
    String text = String.join("\n", lines);
    if (text.isBlank() && images.isEmpty()) {
      return;
    }
    Optional<User> user = Optional.of(new User(m.from(), m.name().isEmpty() ? m.from() : m.name()));
    Frame frame = Frame.of(session, "wa-" + m.id(), new Payload.UserMessage(text, images, user, extra));
    Optional<TetherException> hostRefused = forwarder.forward(frame, chat);
    if (hostRefused.isEmpty()) {
      config.listener().forwarded();
    }
    if (hostRefused.isPresent()) {
      try {
        api.sendText(chat.waId(), "The agent's host did not accept this message: " + hostRefused.get().getMessage());
      } catch (IOException notice) {
        log.info("notice to " + chat + " not sent: " + log.describe(notice));
      }
    }
  }

  private void eager(WhatsAppChat chat, SessionKey session, WhatsAppMessage.Media item, List<String> lines, List<Image> images,
      Map<String, RawJson> extra) throws InterruptedIOException {
    String mime = ChatMediaStore.mimeOr(item.mimeType(), "application/octet-stream");
    Optional<MediaType> imageType = item.kind() == MediaKind.IMAGE ? MediaType.parse(mime) : Optional.empty();
    String name = item.fileName() != null ? item.fileName() : item.kind().name().toLowerCase(Locale.ROOT);
    if (imageType.isEmpty() && config.attachments() == null) {
      lines.add("(The " + name + " was not passed on: this bridge does not store attachments.)");
      return;
    }
    long max = imageType.isPresent() ? Math.min(config.maxDownloadBytes(), config.host().limits().maxImageBytes()) : config.maxDownloadBytes();
    try {
      byte[] bytes = WhatsAppDownloader.download(api, item.mediaId(), max, "'" + name + "'");
      if (imageType.isPresent()) {
        images.add(Images.of(imageType.get(), Base64.getEncoder().encodeToString(bytes), config.host().limits()));
      } else {
        AttachmentInfo stored = config.attachments().putAttachment(config.host().instance(), session, name, mime, bytes)
            .get(HOST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        extra.put("attachments", RawJson.of(AttachmentInfo.payloadJson(List.of(stored))));
        lines.add(stored.notice());
      }
    } catch (InterruptedIOException stop) {
      throw stop;
    } catch (InterruptedException stop) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("stopped while attaching");
    } catch (TetherException bad) {
      lines.add("(The " + name + " was not passed on: " + bad.getMessage() + ")");
    } catch (Exception failed) {
      log.warn("media of " + chat + " not downloaded: " + log.describe(failed));
      lines.add("(The " + name + " could not be downloaded from WhatsApp.)");
    }
  }

  static boolean plainName(String name) {
    return name == null || name.length() <= 255 && !name.contains("/") && !name.contains("\\") && !name.contains("..")
        && name.chars().noneMatch(c -> c < 0x20 || c == 0x7f || c == '[' || c == ']');
  }

  private static <K> Map<K, Boolean> bounded() {
    return new LinkedHashMap<>() {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<K, Boolean> eldest) {
        return size() > MAX_REMEMBERED;
      }
    };
  }
}
