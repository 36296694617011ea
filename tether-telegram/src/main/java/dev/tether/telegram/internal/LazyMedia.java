package dev.tether.telegram.internal;

import dev.tether.api.Limits;
import dev.tether.api.RawJson;
import dev.tether.media.MediaFetcher;
import dev.tether.media.MediaFormatException;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaItem;
import dev.tether.media.MediaKind;
import dev.tether.media.MediaPlaceholder;
import dev.tether.media.MediaReference;
import dev.tether.media.MediaRegistry;
import dev.tether.telegram.MediaMode;
import dev.tether.telegram.TelegramChat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bridge's lazy media: which chats are lazy, the references it registered for their media,
 * and the fetcher that downloads one when an agent asks ({@link MediaRequests}).
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
  static final String REGISTRY_FILE = "media-refs.json";
  static final String MEDIA_DIR = "media";
  /** Downloads at once; more requests wait their turn, so an agent cannot make the bridge open many. */
  static final int DOWNLOAD_THREADS = 4;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final MediaSettings settings;
  private final MediaRegistry registry;
  private final MediaFetcher fetcher;
  private final Path file;
  private final ExecutorService downloads;

  private LazyMedia(MediaSettings settings, MediaRegistry registry, MediaFetcher fetcher, Path file,
      ExecutorService downloads) {
    this.downloads = downloads;
    this.settings = settings;
    this.registry = registry;
    this.fetcher = fetcher;
    this.file = file;
  }

  /** Opens the registry in {@code stateDir} (loading saved references) and builds the fetcher. */
  static LazyMedia open(MediaSettings settings, Path stateDir, Limits limits, BotApi api, Retrier retrier, BridgeLog log)
      throws IOException {
    MediaRegistry registry = MediaRegistry.builder().maximumSize(settings.maxRefs()).clock(settings.clock()).build();
    Path file = stateDir.resolve(REGISTRY_FILE);
    if (Files.exists(file)) {
      try {
        int loaded = registry.load(file);
        log.info("telegram media: " + loaded + " references still fetchable from " + file);
      } catch (MediaFormatException e) {
        log.warn("telegram media: " + e.getMessage() + "; starting without the references in it");
      }
    }
    AtomicInteger n = new AtomicInteger();
    ExecutorService downloads = Executors.newFixedThreadPool(DOWNLOAD_THREADS, r -> {
      Thread t = new Thread(r, "tether-telegram-media-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    MediaFetcher fetcher = MediaFetcher.builder(registry, stateDir.resolve(MEDIA_DIR))
        .executor(downloads)
        .downloader(new TelegramDownloader(api, retrier))
        .inlineImageMaxBytes(Math.min(settings.inlineImageMaxBytes(), limits.maxImageBytes()))
        .maxDownloadBytes(BotApi.GET_FILE_LIMIT)
        .limits(limits)
        .build();
    return new LazyMedia(settings, registry, fetcher, file, downloads);
  }

  MediaRegistry registry() {
    return registry;
  }

  MediaFetcher fetcher() {
    return fetcher;
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
      registry.register(ref);
      items.add(MediaItem.of(ref));
      lines.add(ref.placeholder().format());
    }
    registry.save(file);
    return new Announced(String.join("\n", lines),
        items.isEmpty() ? Map.of() : Map.of(MediaFrames.MEDIA_FIELD, MediaFrames.mediaField(items)));
  }

  /** Text of a lazy chat that would read as a placeholder, with its brackets neutralised; other text unchanged. */
  static String safeText(String text) {
    return MediaPlaceholder.findAll(text).isEmpty() ? text : MediaPlaceholder.neutralise(text);
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
      kind = dev.tether.api.MediaType.parse(mime).isPresent() ? MediaKind.IMAGE : MediaKind.DOCUMENT;
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

  /** A MIME type as the message declared it (lower case, parameters kept), or {@code fallback} when it is unusable. */
  private static String mimeOr(String declared, String fallback) {
    if (declared == null) {
      return fallback;
    }
    String mime = declared.strip().toLowerCase(Locale.ROOT);
    return mime.matches("[a-z0-9!#$&^_.+-]{1,64}/[a-z0-9!#$&^_.+-]{1,127}") ? mime : fallback;
  }

  /** {@code tg_} and 16 random characters of {@code A-Z a-z 0-9 - _}: unguessable, so a ref is no hint to another chat's media. */
  private static String newId() {
    byte[] bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return "tg_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  MediaSettings settings() {
    return settings;
  }

  @Override
  public void close() {
    fetcher.close();
    downloads.shutdownNow(); // a download in flight is abandoned; its request is not answered
  }

  Path file() {
    return Objects.requireNonNull(file);
  }
}
