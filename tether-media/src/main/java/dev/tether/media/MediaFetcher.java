package dev.tether.media;

import dev.tether.api.TetherException;
import dev.tether.api.ErrorCode;
import dev.tether.images.Images;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.sessions.ConfinedDirectory;
import dev.tether.media.internal.MediaFiles;
import dev.tether.media.internal.MediaText;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fetches registered media on demand (the {@code fetch_media} tool): looks the reference up in a
 * {@link MediaRegistry}, downloads it with its channel's {@link MediaDownloader}, and returns
 * either the image itself or the path of a saved file.
 *
 * <p><b>Rules.</b> Media whose MIME type is image/png, image/jpeg, image/gif or image/webp and
 * whose bytes number at most {@code inlineImageMaxBytes} (default 1,000,000) comes back as a
 * {@link MediaFetchResult.InlineImage}, validated like any tether image (its signature must match
 * the declared type, else a {@link dev.tether.api.TetherException} with {@code MEDIA_TYPE_MISMATCH}).
 * Everything else is saved under the media directory as {@code {ref}-{sanitised file name}} and
 * returned as a {@link MediaFetchResult.SavedFile}; a download over {@code maxDownloadBytes}
 * fails with {@link ErrorCode#DOWNLOAD_TOO_LARGE} and leaves no file.
 *
 * <p><b>Concurrency.</b> Thread-safe. Concurrent fetches of the same reference share one download:
 * the first caller starts it and records its future in a map keyed by id; later callers get a
 * copy of that future. The entry is removed just before the future completes, so a fetch made
 * after a result was seen downloads again (results are not cached). Downloads run on the configured executor, by default a private cached pool of daemon
 * threads that {@link #close()} shuts down.
 */
public final class MediaFetcher implements AutoCloseable {
  private final MediaRegistry registry;
  private final Path mediaDir;
  private final Map<String, MediaDownloader> downloaders;
  private final long inlineImageMaxBytes;
  private final long maxDownloadBytes;
  private final Limits limits;
  private final Executor executor;
  private final ExecutorService ownedExecutor;
  private final ConcurrentHashMap<String, CompletableFuture<MediaFetchResult>> inFlight = new ConcurrentHashMap<>();

  private MediaFetcher(Builder b) {
    this.registry = b.registry;
    this.mediaDir = b.mediaDir.toAbsolutePath().normalize();
    this.downloaders = Map.copyOf(b.downloaders);
    this.inlineImageMaxBytes = b.inlineImageMaxBytes;
    this.maxDownloadBytes = b.maxDownloadBytes;
    this.limits = b.limits;
    if (b.executor != null) {
      this.executor = b.executor;
      this.ownedExecutor = null;
    } else {
      AtomicInteger n = new AtomicInteger();
      this.ownedExecutor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "tether-media-fetch-" + n.incrementAndGet());
        t.setDaemon(true);
        return t;
      });
      this.executor = ownedExecutor;
    }
  }

  public static Builder builder(MediaRegistry registry, Path mediaDir) {
    return new Builder(registry, mediaDir);
  }

  /**
   * Fetches the media with reference id {@code refId}. The future fails with a
   * {@link TetherException} (unknown or expired reference, no downloader, too large), a
   * {@link dev.tether.api.TetherException} (an image whose bytes do not match its type) or an
   * {@link IOException} (download or disk failure). Cancelling the returned future does not stop
   * a download that other callers share.
   */
  public CompletableFuture<MediaFetchResult> fetch(String refId) {
    Objects.requireNonNull(refId, "refId");
    MediaReference ref;
    MediaDownloader downloader;
    try {
      ref = registry.require(refId);
      downloader = downloaders.get(ref.channel());
      if (downloader == null) {
        throw TetherException.of(ErrorCode.NO_DOWNLOADER, "media ref:" + refId
            + " comes from channel '" + ref.channel() + "', which has no downloader configured");
      }
    } catch (TetherException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<MediaFetchResult> mine = new CompletableFuture<>();
    CompletableFuture<MediaFetchResult> existing = inFlight.putIfAbsent(refId, mine);
    if (existing != null) {
      return existing.copy();
    }
    try {
      executor.execute(() -> {
        MediaFetchResult result = null;
        Throwable failure = null;
        try {
          result = download(ref, downloader);
        } catch (Throwable t) {
          failure = t;
        }
        // Leave the map before completing, so that whoever sees the result and fetches again
        // starts a new download instead of getting this finished one.
        inFlight.remove(refId, mine);
        if (failure == null) {
          mine.complete(result);
        } else {
          mine.completeExceptionally(failure);
        }
      });
    } catch (RejectedExecutionException e) {
      inFlight.remove(refId, mine);
      mine.completeExceptionally(new IOException("media fetcher is closed", e));
    }
    return mine.copy();
  }

  /**
   * Blocking form of {@link #fetch(String)}: waits at most {@code timeout} and rethrows the
   * failure as it is ({@link TetherException}, {@link dev.tether.api.TetherException}, {@link IOException}).
   */
  public MediaFetchResult fetch(String refId, Duration timeout)
      throws IOException, InterruptedException, TimeoutException {
    try {
      return fetch(refId).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IOException("media fetch failed: " + cause, cause);
    }
  }

  /** Shuts down the default executor, if this fetcher created it. */
  @Override
  public void close() {
    if (ownedExecutor != null) {
      ownedExecutor.shutdown();
    }
  }

  private MediaFetchResult download(MediaReference ref, MediaDownloader downloader) throws IOException {
    MediaType imageType = MediaType.parse(MediaText.essence(ref.mimeType())).orElse(null);
    try (InputStream in = downloader.open(ref)) {
      if (in == null) {
        throw new IOException("downloader for channel '" + ref.channel() + "' returned no stream for ref:" + ref.id());
      }
      byte[] head = new byte[0];
      if (imageType != null) {
        head = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, inlineImageMaxBytes + 1));
        if (head.length <= inlineImageMaxBytes) {
          Image image = Images.fromBytes(head, imageType, limits);
          return new MediaFetchResult.InlineImage(ref, image);
        }
      }
      return save(ref, head, in);
    }
  }

  private MediaFetchResult save(MediaReference ref, byte[] head, InputStream rest) throws IOException {
    String base = ref.fileName() != null ? ref.fileName() : ref.kind().wireName();
    String name = MediaFiles.sanitise(ref.id() + "-" + MediaFiles.sanitise(base));
    Path target = MediaFiles.resolveInside(mediaDir, name);
    long[] written = {0};
    // Written through the opened media directory: temp file (0600, O_EXCL, no links followed), renameat.
    try (ConfinedDirectory dir = ConfinedDirectory.openOrCreate(mediaDir)) {
      dir.write(name, out -> {
        requireWithinLimit(ref, head.length);
        out.write(head);
        written[0] = head.length;
        byte[] buf = new byte[64 * 1024];
        for (int n; (n = rest.read(buf)) >= 0; ) {
          requireWithinLimit(ref, written[0] + n);
          out.write(buf, 0, n);
          written[0] += n;
        }
      });
    }
    return new MediaFetchResult.SavedFile(ref, target, written[0]);
  }

  private void requireWithinLimit(MediaReference ref, long bytes) {
    if (bytes > maxDownloadBytes) {
      throw TetherException.of(ErrorCode.DOWNLOAD_TOO_LARGE, "media ref:" + ref.id()
          + " is larger than the download limit of " + MediaSizes.human(maxDownloadBytes) + "; it was not saved");
    }
  }

  /** Builds a {@link MediaFetcher}; setters fail fast naming the setting. Not thread-safe. */
  public static final class Builder {
    private final MediaRegistry registry;
    private final Path mediaDir;
    private final Map<String, MediaDownloader> downloaders = new HashMap<>();
    private long inlineImageMaxBytes = 1_000_000;
    private long maxDownloadBytes = 100_000_000;
    private Limits limits = Limits.defaults();
    private Executor executor;

    private Builder(MediaRegistry registry, Path mediaDir) {
      this.registry = Objects.requireNonNull(registry, "registry");
      this.mediaDir = Objects.requireNonNull(mediaDir, "mediaDir");
    }

    /** Adds the downloader for its channel; a second one for the same channel is an error. */
    public Builder downloader(MediaDownloader downloader) {
      String channel = Objects.requireNonNull(downloader, "downloader").channel();
      if (downloaders.putIfAbsent(channel, downloader) != null) {
        throw new IllegalStateException("a downloader for channel '" + channel + "' is already set");
      }
      return this;
    }

    /** Images up to this many bytes come back inline; larger ones are saved. Default 1,000,000 (1 MB). */
    public Builder inlineImageMaxBytes(long inlineImageMaxBytes) {
      if (inlineImageMaxBytes < 0 || inlineImageMaxBytes > Integer.MAX_VALUE - 9) {
        throw new IllegalArgumentException("inlineImageMaxBytes must be in 0.." + (Integer.MAX_VALUE - 9)
            + " but was " + inlineImageMaxBytes);
      }
      this.inlineImageMaxBytes = inlineImageMaxBytes;
      return this;
    }

    /** The largest download saved to disk. Default 100,000,000 (100 MB). */
    public Builder maxDownloadBytes(long maxDownloadBytes) {
      if (maxDownloadBytes <= 0) {
        throw new IllegalArgumentException("maxDownloadBytes must be > 0 but was " + maxDownloadBytes);
      }
      this.maxDownloadBytes = maxDownloadBytes;
      return this;
    }

    /** The limits inline images are validated against. Default {@link Limits#defaults()}. */
    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Where downloads run; by default a private cached pool of daemon threads. */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** @throws IllegalStateException when inline images could exceed the image limit */
    public MediaFetcher build() {
      if (inlineImageMaxBytes > limits.maxImageBytes()) {
        throw new IllegalStateException("inlineImageMaxBytes (" + inlineImageMaxBytes
            + ") must not exceed limits.maxImageBytes (" + limits.maxImageBytes() + ")");
      }
      return new MediaFetcher(this);
    }
  }
}
