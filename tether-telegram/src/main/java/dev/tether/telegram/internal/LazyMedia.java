package dev.tether.telegram.internal;

import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.chat.ChatMediaStore;
import dev.tether.media.MediaFetcher;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaItem;
import dev.tether.media.MediaKind;
import dev.tether.media.MediaReference;
import dev.tether.media.MediaRegistry;
import dev.tether.telegram.MediaMode;
import dev.tether.telegram.TelegramChat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The bridge's lazy media: which chats are lazy, the references it registered for their media,
 * and the fetcher that downloads one when an agent asks ({@link dev.tether.chat.MediaFetchAnswers}).
 *
 * <p><b>Registry.</b> A {@link MediaRegistry} bounded by {@link MediaSettings#maxRefs()}, each
 * reference living for {@link MediaSettings#ttl()}. It is saved to {@value #REGISTRY_FILE} in the
 * state directory after every registration (atomically, 0600: the file ids in it are the bot's to
 * download) and loaded at start, so a restart keeps the references. A file that cannot be read is
 * logged and left in place; the bridge starts without the references in it.
 *
 * <p><b>Media directory.</b> Downloads that are not small images are saved under
 * {@value #MEDIA_DIR} in the state directory (0700, files 0600).
 *
 * <p>Registration runs on the ingress thread; downloads run on {@value #DOWNLOAD_THREADS} threads of
 * this class (concurrent requests for one reference share one download). Thread-safe.
 */
final class LazyMedia implements AutoCloseable {
  static final String REGISTRY_FILE = ChatMediaStore.REGISTRY_FILE;
  static final String MEDIA_DIR = ChatMediaStore.MEDIA_DIR;
  /** Downloads at once; more requests wait their turn, so an agent cannot make the bridge open many. */
  static final int DOWNLOAD_THREADS = ChatMediaStore.DOWNLOAD_THREADS;

  private final MediaSettings settings;
  private final ChatMediaStore store;

  private LazyMedia(MediaSettings settings, ChatMediaStore store) {
    this.settings = settings;
    this.store = store;
  }

  /** Opens the registry in {@code stateDir} (loading saved references) and builds the fetcher. */
  static LazyMedia open(MediaSettings settings, Path stateDir, Limits limits, BotApi api, Retrier retrier, BridgeLog log)
      throws IOException {
    ChatMediaStore store = ChatMediaStore.open(TelegramChat.CHANNEL, stateDir, settings.maxRefs(), settings.clock(),
        settings.inlineImageMaxBytes(), BotApi.GET_FILE_LIMIT, limits, new TelegramDownloader(api, retrier), log.chat());
    return new LazyMedia(settings, store);
  }

  MediaRegistry registry() {
    return store.registry();
  }

  MediaFetcher fetcher() {
    return store.fetcher();
  }

  /** Whether media of this message's chat is announced rather than downloaded. */
  boolean isLazy(BotTypes.Message m) {
    return settings.modeOf(m.chat().type()) == MediaMode.LAZY;
  }

  /** Whether the message carries media this class announces. */
  static boolean hasMedia(BotTypes.Message m) {
    return (m.photo() != null && !m.photo().isEmpty()) || m.document() != null || m.voice() != null
        || m.audio() != null || m.video() != null || m.sticker() != null;
  }

  /** What a lazy message becomes: its text (placeholders, then any caption) and its {@code media} field. */
  record Announced(String text, Map<String, RawJson> extra) {}

  /**
   * Registers a reference for the media of each message (nothing is downloaded), saves the
   * registry, and returns the message's text and payload field: one placeholder line per item,
   * each with its own caption; captions cannot forge placeholders (their brackets are neutralised).
   */
  Announced announce(TelegramChat chat, List<BotTypes.Message> messages) throws IOException {
    List<MediaItem> items = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    for (BotTypes.Message m : messages) {
      MediaReference ref = referenceOf(chat, m);
      if (ref == null) {
        String text = Ingress.textOf(m);
        if (!text.isEmpty()) {
          lines.add(safeText(text));
        }
        continue;
      }
      store.register(ref);
      items.add(MediaItem.of(ref));
      lines.add(ref.placeholder().format());
    }
    store.save();
    return new Announced(String.join("\n", lines),
        items.isEmpty() ? Map.of() : Map.of(MediaFrames.MEDIA_FIELD, MediaFrames.mediaField(items)));
  }

  /** Text of a lazy chat that would read as a placeholder, with its brackets neutralised; other text unchanged. */
  static String safeText(String text) {
    return ChatMediaStore.safeText(text);
  }

  /** The reference for the message's media, or null when it carries none with a file id. */
  private MediaReference referenceOf(TelegramChat chat, BotTypes.Message m) {
    String fileId;
    MediaKind kind;
    String mime;
    String name;
    Long size;
    if (m.photo() != null && !m.photo().isEmpty()) {
      BotTypes.PhotoSize largest = m.photo().get(m.photo().size() - 1);
      fileId = largest.fileId();
      kind = MediaKind.IMAGE;
      mime = "image/jpeg"; // Telegram re-encodes photos as JPEG
      name = "photo.jpg";
      size = largest.fileSize();
    } else if (m.document() != null) {
      BotTypes.Document d = m.document();
      fileId = d.fileId();
      mime = mimeOr(d.mimeType(), "application/octet-stream");
      kind = MediaType.parse(mime).isPresent() ? MediaKind.IMAGE : MediaKind.DOCUMENT;
      name = d.fileName();
      size = d.fileSize();
    } else if (m.voice() != null) {
      fileId = m.voice().fileId();
      kind = MediaKind.VOICE;
      mime = mimeOr(m.voice().mimeType(), "audio/ogg"); // the Bot API: voice notes are OGG/Opus
      name = m.voice().duration() == null ? null : m.voice().duration() + "s";
      size = m.voice().fileSize();
    } else if (m.audio() != null) {
      fileId = m.audio().fileId();
      kind = MediaKind.AUDIO;
      mime = mimeOr(m.audio().mimeType(), "application/octet-stream");
      name = m.audio().fileName();
      size = m.audio().fileSize();
    } else if (m.video() != null) {
      fileId = m.video().fileId();
      kind = MediaKind.VIDEO;
      mime = mimeOr(m.video().mimeType(), "video/mp4"); // the Bot API: videos are MPEG-4
      name = m.video().fileName();
      size = m.video().fileSize();
    } else if (m.sticker() != null) {
      BotTypes.Sticker s = m.sticker();
      fileId = s.fileId();
      kind = MediaKind.STICKER;
      boolean video = Boolean.TRUE.equals(s.isVideo());
      boolean animated = Boolean.TRUE.equals(s.isAnimated());
      mime = video ? "video/webm" : animated ? "application/x-tgsticker" : "image/webp";
      name = video ? "sticker.webm" : animated ? "sticker.tgs" : "sticker.webp";
      size = s.fileSize();
    } else {
      return null;
    }
    if (fileId == null || fileId.isEmpty()) {
      return null;
    }
    return MediaReference.builder(newId(), TelegramChat.CHANNEL, kind, mime)
        .chat(Long.toString(chat.chatId()))
        .messageId(Long.toString(m.messageId()))
        .fileName(name)
        .size(size == null || size < 0 ? -1 : size)
        .caption(captionOf(m))
        .downloadInfo(Map.of(TelegramDownloader.FILE_ID, fileId))
        .createdAt(settings.clock().instant())
        .ttl(settings.ttl())
        .build();
  }

  private static String captionOf(BotTypes.Message m) {
    String caption = m.caption() == null ? "" : m.caption();
    return caption.length() > 4096 ? caption.substring(0, 4096) : caption;
  }

  private static String mimeOr(String declared, String fallback) {
    return ChatMediaStore.mimeOr(declared, fallback);
  }

  /** {@code tg_} and 16 random characters: unguessable, so a ref is no hint to another chat's media. */
  private static String newId() {
    return ChatMediaStore.newId("tg_");
  }

  MediaSettings settings() {
    return settings;
  }

  @Override
  public void close() {
    store.close(); // a download in flight is abandoned; its request is not answered
  }

  Path file() {
    return store.file();
  }
}
