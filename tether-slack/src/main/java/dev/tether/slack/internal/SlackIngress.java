package dev.tether.slack.internal;

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
import dev.tether.images.ByteSizes;
import dev.tether.images.Images;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaItem;
import dev.tether.media.MediaKind;
import dev.tether.media.MediaReference;
import dev.tether.slack.SlackChat;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Slack to tether: turns each user message of an allowed conversation into one {@code user.message}
 * frame on session {@code slack/<channel>:<thread_ts>}, and sends it to the host
 * ({@link HostForwarder}). Messages of other conversations are ignored (their id is logged once),
 * bots' messages are skipped, and a delivery seen before (same {@code event_id} or same message
 * {@code ts}: Slack redelivers what was not acknowledged in time) is dropped.
 *
 * <p>Files ({@code event.files[]}): in a lazy conversation each becomes an {@code sl_} reference
 * with a placeholder (name, size and type from the event, nothing downloaded); in an eager one,
 * images are downloaded and travel as images and other files are stored as session attachments.
 * A file whose name is not a plain file name (path separators, {@code ..}, control characters) or
 * whose size is over the limit is refused before any download, with a line saying so.
 *
 * <p>Runs on the one thread that takes deliveries from the receivers; not thread-safe.
 */
final class SlackIngress {
  /** How many delivery ids are remembered across restarts ({@link SeenIds}). */
  static final int MAX_REMEMBERED = 10_000;
  private static final long HOST_TIMEOUT_SECONDS = 120;

  private final SlackConfig config;
  private final SlackApi api;
  private final ChatMediaStore media;
  private final HostForwarder forwarder;
  private final ChatLog log;
  private final SeenIds seen;
  private final Map<String, Boolean> refused = bounded();

  SlackIngress(SlackConfig config, SlackApi api, ChatMediaStore media, HostForwarder forwarder, SeenIds seen, ChatLog log) {
    this.seen = Objects.requireNonNull(seen, "seen");
    this.config = Objects.requireNonNull(config, "config");
    this.api = Objects.requireNonNull(api, "api");
    this.media = Objects.requireNonNull(media, "media");
    this.forwarder = Objects.requireNonNull(forwarder, "forwarder");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** Handles one message event. */
  void handle(SlackEvent e) throws IOException {
    config.listener().received(1);
    if (!config.allowed(e.channel())) {
      if (refused.put(e.channel(), Boolean.TRUE) == null) {
        log.info("ignored messages from Slack conversation " + e.channel() + ": it is not in the allowed channels");
      }
      return;
    }
    if (!SlackChat.isChannelId(e.channel())) {
      return;
    }
    String key = e.channel() + "/" + e.ts();
    if ((!e.eventId().isEmpty() && !seen.firstTime("event:" + e.eventId())) | !seen.firstTime("message:" + key)) {
      log.info("skipped a repeated delivery of message " + e.ts() + " in " + e.channel());
      return;
    }
    SlackChat chat;
    try {
      chat = new SlackChat(e.channel(), e.threadTs());
    } catch (IllegalArgumentException bad) {
      log.warn("skipped a message in " + e.channel() + ": " + bad.getMessage());
      return;
    }
    boolean lazy = chat.isDirect() ? config.lazyDirect() : config.lazyChannels();
    List<String> lines = new ArrayList<>();
    List<Image> images = new ArrayList<>();
    List<MediaItem> items = new ArrayList<>();
    List<AttachmentInfo> attached = new ArrayList<>();
    SessionKey session = new SessionKey(SlackChat.CHANNEL, chat.sessionId());
    for (SlackEvent.SlackFile f : e.files()) {
      Optional<String> refusal = refusal(f);
      if (refusal.isPresent()) {
        log.info("refused a file in " + chat + ": " + refusal.get());
        lines.add("(A file was not passed on: " + refusal.get() + ".)");
      } else if (lazy) {
        MediaReference ref = referenceOf(chat, e, f);
        media.register(ref);
        items.add(MediaItem.of(ref));
        lines.add(ref.placeholder().format());
      } else {
        eager(chat, session, f, lines, images, attached);
      }
    }
    if (!items.isEmpty()) {
      media.save();
    }
    String text = lazy ? ChatMediaStore.safeText(e.text()) : e.text();
    if (!text.isBlank()) {
      lines.add(text);
    }
    String all = String.join("\n", lines);
    if (all.isBlank() && images.isEmpty()) {
      return;
    }
    Map<String, RawJson> extra = new LinkedHashMap<>();
    if (!items.isEmpty()) {
      extra.put(MediaFrames.MEDIA_FIELD, MediaFrames.mediaField(items));
    }
    if (!attached.isEmpty()) {
      extra.put("attachments", RawJson.of(AttachmentInfo.payloadJson(attached)));
    }
    Optional<User> user = e.user().isEmpty() ? Optional.empty() : Optional.of(new User(e.user(), e.user()));
    Frame frame = Frame.of(session, "slack-" + e.channel() + "-" + e.ts(), new Payload.UserMessage(all, images, user, extra));
    Optional<TetherException> hostRefused = forwarder.forward(frame, chat);
    if (hostRefused.isEmpty()) {
      config.listener().forwarded();
    }
    if (hostRefused.isPresent()) {
      try {
        api.postMessage(chat.channel(), chat.threadTs(), "The agent's host did not accept this message: " + hostRefused.get().getMessage());
      } catch (IOException notice) {
        log.info("notice to " + chat + " not sent: " + log.describe(notice));
      }
    }
  }

  /** Why a file is not passed on before anything is downloaded, or empty. */
  private Optional<String> refusal(SlackEvent.SlackFile f) {
    if (f.urlPrivate() == null || f.id().isEmpty()) {
      return Optional.of("it has no download URL");
    }
    String name = f.name();
    if (name != null && (name.length() > 255 || name.contains("/") || name.contains("\\") || name.equals(".") || name.contains("..")
        || name.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == '[' || c == ']'))) {
      return Optional.of("its name is not a plain file name");
    }
    if (f.size() > config.maxDownloadBytes()) {
      return Optional.of("'" + name + "' is " + ByteSizes.decimal(f.size()) + ", over the limit of "
          + ByteSizes.decimal(config.maxDownloadBytes()));
    }
    try {
      if (!api.trustedFileUrl(URI.create(f.urlPrivate()))) {
        return Optional.of("its download URL is not on Slack's hosts, so the bot token is not sent there");
      }
    } catch (IllegalArgumentException bad) {
      return Optional.of("its download URL is malformed");
    }
    return Optional.empty();
  }

  private MediaReference referenceOf(SlackChat chat, SlackEvent e, SlackEvent.SlackFile f) {
    String mime = ChatMediaStore.mimeOr(f.mimeType(), "application/octet-stream");
    MediaKind kind = MediaType.parse(mime).isPresent() ? MediaKind.IMAGE
        : mime.startsWith("audio/") ? MediaKind.AUDIO : mime.startsWith("video/") ? MediaKind.VIDEO : MediaKind.DOCUMENT;
    return MediaReference.builder(ChatMediaStore.newId("sl_"), SlackChat.CHANNEL, kind, mime)
        .chat(chat.channel())
        .messageId(e.ts())
        .fileName(f.name())
        .size(f.size() < 0 ? -1 : f.size())
        .downloadInfo(Map.of(SlackDownloader.URL, f.urlPrivate()))
        .createdAt(config.clock().instant())
        .ttl(config.mediaTtl())
        .build();
  }

  private void eager(SlackChat chat, SessionKey session, SlackEvent.SlackFile f, List<String> lines, List<Image> images,
      List<AttachmentInfo> attached) throws InterruptedIOException {
    String name = f.name() == null ? "file" : f.name();
    String mime = ChatMediaStore.mimeOr(f.mimeType(), "application/octet-stream");
    Optional<MediaType> imageType = MediaType.parse(mime);
    if (imageType.isEmpty() && config.attachments() == null) {
      lines.add("(The file '" + name + "' was not passed on: this bridge does not store attachments.)");
      return;
    }
    long max = imageType.isPresent() ? Math.min(config.maxDownloadBytes(), config.host().limits().maxImageBytes()) : config.maxDownloadBytes();
    Optional<byte[]> bytes;
    try {
      bytes = api.download(URI.create(f.urlPrivate()), max);
    } catch (InterruptedIOException stop) {
      throw stop;
    } catch (IOException failed) {
      log.warn("file '" + name + "' in " + chat + " not downloaded: " + log.describe(failed));
      lines.add("(The file '" + name + "' could not be downloaded from Slack.)");
      return;
    }
    if (bytes.isEmpty()) {
      lines.add("(The file '" + name + "' is larger than " + ByteSizes.decimal(max) + " and was not passed on.)");
      return;
    }
    try {
      if (imageType.isPresent()) {
        images.add(Images.of(imageType.get(), Base64.getEncoder().encodeToString(bytes.get()), config.host().limits()));
      } else {
        AttachmentInfo stored = config.attachments().putAttachment(config.host().instance(), session, name, mime, bytes.get())
            .get(HOST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        attached.add(stored);
        lines.add(stored.notice());
      }
    } catch (TetherException bad) {
      lines.add("(The file '" + name + "' was not passed on: " + bad.getMessage() + ")");
    } catch (InterruptedException stop) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("stopped while attaching");
    } catch (Exception failed) {
      lines.add("(The file '" + name + "' could not be stored on the agent's host.)");
    }
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
