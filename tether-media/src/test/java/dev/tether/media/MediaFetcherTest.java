package dev.tether.media;

import dev.tether.api.testing.TestClock;
import dev.tether.api.testing.TestImages;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MediaFetcherTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final TestClock clock = new TestClock();
  private final MediaRegistry registry = MediaRegistry.builder().clock(clock).build();
  private final RecordingDownloader telegram = new RecordingDownloader("telegram");
  @TempDir
  Path dir;
  private MediaFetcher fetcher;

  /** Serves bytes by ref id from the download info's "file_id", counting each open. */
  static final class RecordingDownloader implements MediaDownloader {
    final String channel;
    final Map<String, byte[]> files = new ConcurrentHashMap<>();
    final AtomicInteger opens = new AtomicInteger();

    RecordingDownloader(String channel) {
      this.channel = channel;
    }

    @Override
    public String channel() {
      return channel;
    }

    @Override
    public InputStream open(MediaReference ref) throws IOException {
      opens.incrementAndGet();
      byte[] bytes = files.get(ref.downloadInfo().get("file_id"));
      if (bytes == null) {
        throw new IOException("404 for " + ref.downloadInfo().get("file_id"));
      }
      return new ByteArrayInputStream(bytes);
    }
  }

  private MediaFetcher fetcher(MediaFetcher.Builder b) {
    fetcher = b.build();
    return fetcher;
  }

  private MediaFetcher defaultFetcher() {
    return fetcher(MediaFetcher.builder(registry, dir.resolve("media")).downloader(telegram));
  }

  @AfterEach
  void close() {
    if (fetcher != null) {
      fetcher.close();
    }
  }

  private MediaReference register(String id, MediaKind kind, String mime, String fileName, byte[] bytes) {
    telegram.files.put("f_" + id, bytes);
    MediaReference ref = MediaReference.builder(id, "telegram", kind, mime).fileName(fileName).size(bytes.length)
        .downloadInfo(Map.of("file_id", "f_" + id)).createdAt(clock.instant()).build();
    registry.register(ref);
    return ref;
  }

  @Test
  void fetch_smallImageComesBackAsValidatedImageContent() throws Exception {
    byte[] png = TestImages.png(5000);
    register("tg_1", MediaKind.IMAGE, "image/png", "a.png", png);
    MediaFetchResult result = defaultFetcher().fetch("tg_1", WAIT);
    MediaFetchResult.InlineImage inline = assertInstanceOf(MediaFetchResult.InlineImage.class, result);
    assertEquals(MediaType.PNG, inline.image().mediaType());
    assertArrayEquals(png, Base64.getDecoder().decode(inline.image().data()));
    assertEquals("tg_1", inline.ref().id());
  }

  @Test
  void fetch_imageExactlyAtThresholdIsInlineAndOneByteMoreIsSaved() throws Exception {
    register("at", MediaKind.IMAGE, "image/jpeg", "at.jpg", TestImages.jpeg(100));
    register("over", MediaKind.IMAGE, "image/jpeg", "over.jpg", TestImages.jpeg(101));
    MediaFetcher f = fetcher(MediaFetcher.builder(registry, dir.resolve("media")).downloader(telegram).inlineImageMaxBytes(100));
    assertInstanceOf(MediaFetchResult.InlineImage.class, f.fetch("at", WAIT));
    MediaFetchResult.SavedFile saved = assertInstanceOf(MediaFetchResult.SavedFile.class, f.fetch("over", WAIT));
    assertEquals(dir.resolve("media").toAbsolutePath().resolve("over-over.jpg"), saved.path());
    assertArrayEquals(TestImages.jpeg(101), Files.readAllBytes(saved.path()));
    assertEquals(101, saved.size());
  }

  @Test
  void fetch_defaultThresholdIsOneMegabyte() throws Exception {
    register("big", MediaKind.IMAGE, "image/png", "big.png", TestImages.png(1_000_001));
    register("fits", MediaKind.IMAGE, "image/png", "fits.png", TestImages.png(1_000_000));
    MediaFetcher f = defaultFetcher();
    assertInstanceOf(MediaFetchResult.SavedFile.class, f.fetch("big", WAIT));
    assertInstanceOf(MediaFetchResult.InlineImage.class, f.fetch("fits", WAIT));
  }

  @Test
  void fetch_smallNonImageIsSavedToTheMediaDirectory() throws Exception {
    byte[] pdf = "%PDF-1.7 tiny".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    register("sl_F07B2C3D", MediaKind.DOCUMENT, "application/pdf", "report.pdf", pdf);
    MediaFetchResult.SavedFile saved = assertInstanceOf(MediaFetchResult.SavedFile.class, defaultFetcher().fetch("sl_F07B2C3D", WAIT));
    assertEquals("sl_F07B2C3D-report.pdf", saved.path().getFileName().toString());
    assertArrayEquals(pdf, Files.readAllBytes(saved.path()));
  }

  @Test
  void fetch_unnamedMediaIsSavedUnderItsRefAndKind() throws Exception {
    register("v1", MediaKind.VOICE, "audio/ogg", null, new byte[] {1, 2, 3});
    MediaFetchResult.SavedFile saved = assertInstanceOf(MediaFetchResult.SavedFile.class, defaultFetcher().fetch("v1", WAIT));
    assertEquals("v1-voice", saved.path().getFileName().toString());
  }

  @Test
  void fetch_imageWhoseBytesDoNotMatchItsTypeIsAClearError() {
    register("liar", MediaKind.IMAGE, "image/png", "liar.png", TestImages.jpeg(500));
    TetherException e = assertThrows(TetherException.class, () -> defaultFetcher().fetch("liar", WAIT));
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, e.code());
    assertTrue(e.getMessage().contains("declared as image/png but its bytes are image/jpeg"), e.getMessage());
  }

  @Test
  void fetch_unknownAndExpiredRefsAreClearErrorsWithoutDownloading() {
    register("soon", MediaKind.IMAGE, "image/png", "a.png", TestImages.png(100));
    clock.advance(MediaReference.DEFAULT_TTL);
    MediaFetcher f = defaultFetcher();
    assertEquals(ErrorCode.EXPIRED_REF,
        assertThrows(TetherException.class, () -> f.fetch("soon", WAIT)).code());
    assertEquals(ErrorCode.UNKNOWN_REF,
        assertThrows(TetherException.class, () -> f.fetch("never", WAIT)).code());
    assertEquals(0, telegram.opens.get());
  }

  @Test
  void fetch_channelWithoutDownloaderIsAClearError() {
    registry.register(MediaReference.builder("wa_1", "whatsapp", MediaKind.IMAGE, "image/png").createdAt(clock.instant()).build());
    TetherException e = assertThrows(TetherException.class, () -> defaultFetcher().fetch("wa_1", WAIT));
    assertEquals(ErrorCode.NO_DOWNLOADER, e.code());
    assertTrue(e.getMessage().contains("'whatsapp'"), e.getMessage());
  }

  @Test
  void fetch_downloadFailureIsAnIoException() {
    registry.register(MediaReference.builder("gone", "telegram", MediaKind.DOCUMENT, "text/plain")
        .downloadInfo(Map.of("file_id", "missing")).createdAt(clock.instant()).build());
    IOException e = assertThrows(IOException.class, () -> defaultFetcher().fetch("gone", WAIT));
    assertTrue(e.getMessage().contains("404"), e.getMessage());
  }

  @Test
  void fetch_downloadOverTheLimitFailsAndLeavesNoFile() throws IOException {
    register("huge", MediaKind.VIDEO, "video/mp4", "huge.mp4", new byte[300_000]);
    MediaFetcher f = fetcher(MediaFetcher.builder(registry, dir.resolve("media")).downloader(telegram).maxDownloadBytes(200_000));
    assertEquals(ErrorCode.DOWNLOAD_TOO_LARGE,
        assertThrows(TetherException.class, () -> f.fetch("huge", WAIT)).code());
    try (Stream<Path> files = Files.list(dir.resolve("media"))) {
      assertEquals(List.of(), files.toList());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"../../etc/passwd", "/etc/passwd", "..\\..\\windows\\win.ini", "%2e%2e%2fescape",
      "a\u0001b:c*?.txt", "..", "C:\\Users\\x\\evil.bat", "sub/../../up"})
  void fetch_hostileFileNameIsSavedInsideTheMediaDirectory(String fileName) throws Exception {
    register("h1", MediaKind.DOCUMENT, "application/octet-stream", fileName, new byte[] {7});
    MediaFetchResult.SavedFile saved = assertInstanceOf(MediaFetchResult.SavedFile.class, defaultFetcher().fetch("h1", WAIT));
    assertEquals(dir.resolve("media").toAbsolutePath(), saved.path().getParent());
    assertTrue(saved.path().getFileName().toString().startsWith("h1-"), saved.path().toString());
    assertEquals("h1-" + dev.tether.media.internal.MediaFiles.sanitise(fileName), saved.path().getFileName().toString());
    try (Stream<Path> all = Files.walk(dir)) {
      assertEquals(1, all.filter(Files::isRegularFile).count(), "exactly one file was written, inside media/");
    }
  }

  /** Blocks every download until released, so a test controls when the first one finishes. */
  static final class LatchedDownloader implements MediaDownloader {
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger opens = new AtomicInteger();

    @Override
    public String channel() {
      return "telegram";
    }

    @Override
    public InputStream open(MediaReference ref) throws IOException {
      opens.incrementAndGet();
      started.countDown();
      try {
        if (!release.await(30, TimeUnit.SECONDS)) {
          throw new IOException("test never released the download");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
      return new ByteArrayInputStream(TestImages.png(2000));
    }
  }

  @RepeatedTest(20)
  void fetch_concurrentFetchesOfTheSameRefDownloadOnce() throws Exception {
    LatchedDownloader latched = new LatchedDownloader();
    registry.register(MediaReference.builder("same", "telegram", MediaKind.IMAGE, "image/png").createdAt(clock.instant()).build());
    MediaFetcher f = fetcher(MediaFetcher.builder(registry, dir.resolve("media")).downloader(latched));
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CyclicBarrier go = new CyclicBarrier(threads);
    try {
      List<Future<CompletableFuture<MediaFetchResult>>> calls = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        calls.add(pool.submit(() -> {
          go.await();
          return f.fetch("same");
        }));
      }
      List<CompletableFuture<MediaFetchResult>> futures = new ArrayList<>();
      for (Future<CompletableFuture<MediaFetchResult>> call : calls) {
        futures.add(call.get(30, TimeUnit.SECONDS)); // every caller has its future before the download ends
      }
      assertTrue(latched.started.await(30, TimeUnit.SECONDS));
      for (CompletableFuture<MediaFetchResult> future : futures) {
        assertTrue(!future.isDone(), "no result before the download is released");
      }
      latched.release.countDown();
      MediaFetchResult first = futures.get(0).get(30, TimeUnit.SECONDS);
      for (CompletableFuture<MediaFetchResult> future : futures) {
        assertSame(first, future.get(30, TimeUnit.SECONDS));
      }
      assertEquals(1, latched.opens.get());
      // Once finished, a later fetch downloads again (results are not cached).
      assertInstanceOf(MediaFetchResult.InlineImage.class, f.fetch("same", WAIT));
      assertEquals(2, latched.opens.get());
    } finally {
      latched.release.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void fetch_differentRefsDownloadIndependently() throws Exception {
    register("a", MediaKind.IMAGE, "image/png", "a.png", TestImages.png(100));
    register("b", MediaKind.IMAGE, "image/png", "b.png", TestImages.png(200));
    MediaFetcher f = defaultFetcher();
    f.fetch("a", WAIT);
    f.fetch("b", WAIT);
    assertEquals(2, telegram.opens.get());
  }

  @Test
  void builder_rejectsASecondDownloaderForTheSameChannelAndBadLimits() {
    MediaFetcher.Builder b = MediaFetcher.builder(registry, dir).downloader(telegram);
    assertEquals("a downloader for channel 'telegram' is already set",
        assertThrows(IllegalStateException.class, () -> b.downloader(new RecordingDownloader("telegram"))).getMessage());
    assertEquals("maxDownloadBytes must be > 0 but was 0",
        assertThrows(IllegalArgumentException.class, () -> b.maxDownloadBytes(0)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> b.inlineImageMaxBytes(-1));
    b.limits(dev.tether.api.Limits.builder().maxImageBytes(500_000).build());
    assertEquals("inlineImageMaxBytes (1000000) must not exceed limits.maxImageBytes (500000)",
        assertThrows(IllegalStateException.class, b::build).getMessage());
  }
}
