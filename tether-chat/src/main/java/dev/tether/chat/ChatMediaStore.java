package dev.tether.chat;

import dev.tether.api.Limits;
import dev.tether.media.MediaDownloader;
import dev.tether.media.MediaFetcher;
import dev.tether.media.MediaFormatException;
import dev.tether.media.MediaPlaceholder;
import dev.tether.media.MediaReference;
import dev.tether.media.MediaRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bridge's lazy media: the references it registered for the media of its lazy chats, and the
 * fetcher that downloads one when an agent asks ({@link MediaFetchAnswers}).
 *
 * <p><b>Registry.</b> A {@link MediaRegistry} bounded by {@code maxRefs}. It is saved to
 * {@value #REGISTRY_FILE} in the state directory after every registration ({@link #save}:
 * atomically, 0600, since the download handles in it are the bot's) and loaded at start, so a
 * restart keeps the references. A file that cannot be read is logged and left in place; the bridge
 * starts without the references in it.
 *
 * <p><b>Media directory.</b> Downloads that are not small images are saved under
 * {@value #MEDIA_DIR} in the state directory (0700, files 0600).
 *
 * <p>Registration runs on the ingress thread; downloads run on {@value #DOWNLOAD_THREADS} threads of
 * this class (concurrent requests for one reference share one download). Thread-safe.
 */
public final class ChatMediaStore implements AutoCloseable {
  public static final String REGISTRY_FILE = "media-refs.json";
  public static final String MEDIA_DIR = "media";
  /** Downloads at once; more requests wait their turn, so an agent cannot make the bridge open many. */
  public static final int DOWNLOAD_THREADS = 4;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String MIME = "[a-z0-9!#$&^_.+-]{1,64}/[a-z0-9!#$&^_.+-]{1,127}";

  private final MediaRegistry registry;
  private final MediaFetcher fetcher;
  private final Path file;
  private final ExecutorService downloads;

  private ChatMediaStore(MediaRegistry registry, MediaFetcher fetcher, Path file, ExecutorService downloads) {
    this.registry = registry;
    this.fetcher = fetcher;
    this.file = file;
    this.downloads = downloads;
  }

  /**
   * Opens the registry in {@code stateDir} (loading saved references) and builds the fetcher.
   *
   * @param channel the session channel, for log lines and thread names ({@code telegram})
   * @param maxDownloadBytes the platform's download limit, refused before any download
   */
  public static ChatMediaStore open(String channel, Path stateDir, int maxRefs, Clock clock, long inlineImageMaxBytes,
      long maxDownloadBytes, Limits limits, MediaDownloader downloader, ChatLog log) throws IOException {
    MediaRegistry registry = MediaRegistry.builder().maximumSize(maxRefs).clock(clock).build();
    Path file = stateDir.resolve(REGISTRY_FILE);
    if (Files.exists(file)) {
      try {
        int loaded = registry.load(file);
        log.info(channel + " media: " + loaded + " references still fetchable from " + file);
      } catch (MediaFormatException e) {
        log.warn(channel + " media: " + e.getMessage() + "; starting without the references in it");
      }
    }
    AtomicInteger n = new AtomicInteger();
    ExecutorService downloads = Executors.newFixedThreadPool(DOWNLOAD_THREADS, r -> {
      Thread t = new Thread(r, "tether-" + channel + "-media-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    MediaFetcher fetcher = MediaFetcher.builder(registry, stateDir.resolve(MEDIA_DIR))
        .executor(downloads)
        .downloader(downloader)
        .inlineImageMaxBytes(Math.min(inlineImageMaxBytes, limits.maxImageBytes()))
        .maxDownloadBytes(maxDownloadBytes)
        .limits(limits)
        .build();
    return new ChatMediaStore(registry, fetcher, file, downloads);
  }

  public MediaRegistry registry() {
    return registry;
  }

  public MediaFetcher fetcher() {
    return fetcher;
  }

  /** Registers {@code ref} (nothing is downloaded); call {@link #save} after a message's references. */
  public void register(MediaReference ref) {
    registry.register(ref);
  }

  /** Writes the registry to the state directory, atomically and owner-only. */
  public void save() throws IOException {
    registry.save(file);
  }

  public Path file() {
    return file;
  }

  /**
   * A new reference id: {@code prefix} ({@code tg_}, {@code sl_}, {@code wa_}) and 16 random
   * characters of {@code A-Z a-z 0-9 - _}: unguessable, so a ref is no hint to another chat's media.
   */
  public static String newId(String prefix) {
    byte[] bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** A MIME type as a platform declared it (lower case, parameters kept), or {@code fallback} when it is unusable. */
  public static String mimeOr(String declared, String fallback) {
    if (declared == null) {
      return fallback;
    }
    String mime = declared.strip().toLowerCase(Locale.ROOT);
    return mime.matches(MIME) ? mime : fallback;
  }

  /** Text of a lazy chat that would read as a placeholder, with its brackets neutralised; other text unchanged. */
  public static String safeText(String text) {
    return MediaPlaceholder.findAll(text).isEmpty() ? text : MediaPlaceholder.neutralise(text);
  }

  @Override
  public void close() {
    fetcher.close();
    downloads.shutdownNow(); // a download in flight is abandoned; its request is not answered
  }

  @Override
  public String toString() {
    return "ChatMediaStore[" + Objects.requireNonNull(file) + "]";
  }
}
