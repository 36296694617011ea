package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobCorruptedException;
import dev.tether.api.blobs.BlobGcResult;
import dev.tether.api.testing.TestClock;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileBlobStoreTest {
  @TempDir Path dir;

  private FileBlobStore store() throws IOException {
    return FileBlobStore.open(dir);
  }

  private List<String> fileNames() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void put_thenGet_roundTripsTheBytesUnderTheirSha256() throws IOException {
    FileBlobStore store = store();
    byte[] png = SeededImages.png(5000, 1);
    BlobKey key = store.put(png, MediaType.PNG);
    assertEquals(BlobKey.forContent(png, MediaType.PNG), key);
    assertArrayEquals(png, store.get(key));
    assertArrayEquals(png, Files.readAllBytes(dir.resolve(key.fileName())));
    try (InputStream in = store.open(key)) {
      assertArrayEquals(png, in.readAllBytes());
    }
    assertTrue(store.exists(key));
    assertEquals(List.of(key.fileName()), fileNames(), "no temp file is left behind");
  }

  @Test
  void put_sameBytesTwice_storesOneFile() throws IOException {
    FileBlobStore store = store();
    byte[] png = SeededImages.png(3000, 2);
    BlobKey first = store.put(png, MediaType.PNG);
    BlobKey second = store.put(png.clone(), MediaType.PNG);
    BlobKey streamed = store.put(new ByteArrayInputStream(png), MediaType.PNG);
    assertEquals(first, second);
    assertEquals(first, streamed);
    assertEquals(List.of(first.fileName()), fileNames());
  }

  @Test
  void put_streamLargerThanOneBuffer_hashesEveryByte() throws IOException {
    FileBlobStore store = store();
    byte[] jpeg = SeededImages.jpeg(300_000, 3);
    BlobKey key = store.put(new ByteArrayInputStream(jpeg), MediaType.JPEG);
    assertEquals(BlobKey.forContent(jpeg, MediaType.JPEG), key);
    assertArrayEquals(jpeg, store.get(key));
  }

  @Test
  void concurrentPuts_ofTheSameNewBytes_allSucceedWithOneFile() throws Exception {
    FileBlobStore store = store();
    byte[] png = SeededImages.png(200_000, 4);
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<BlobKey>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        boolean stream = i % 2 == 0;
        results.add(pool.submit(() -> {
          start.await();
          return stream ? store.put(new ByteArrayInputStream(png), MediaType.PNG) : store.put(png, MediaType.PNG);
        }));
      }
      start.countDown();
      for (Future<BlobKey> result : results) {
        assertEquals(BlobKey.forContent(png, MediaType.PNG), result.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1, fileNames().size(), fileNames().toString());
    assertArrayEquals(png, store.get(BlobKey.forContent(png, MediaType.PNG)));
  }

  @Test
  void put_overTheSizeLimit_isRejectedAndLeavesNoFile() throws IOException {
    FileBlobStore store = FileBlobStore.builder(dir).limits(Limits.builder().maxImageBytes(1000).build()).build();
    byte[] png = SeededImages.png(1001, 5);
    TetherException e = assertThrows(TetherException.class, () -> store.put(png, MediaType.PNG));
    assertEquals(ErrorCode.IMAGE_TOO_LARGE, e.code());
    CountingStream in = new CountingStream(new ByteArrayInputStream(SeededImages.png(100_000, 5)));
    e = assertThrows(TetherException.class, () -> store.put(in, MediaType.PNG));
    assertEquals(ErrorCode.IMAGE_TOO_LARGE, e.code());
    assertEquals(1001, in.count, "reads one byte past the limit, no more");
    assertEquals(List.of(), fileNames());
  }

  @Test
  void put_bytesThatAreNotTheDeclaredType_isRejected() throws IOException {
    FileBlobStore store = store();
    TetherException e = assertThrows(TetherException.class, () -> store.put(SeededImages.jpeg(100, 6), MediaType.PNG));
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, e.code());
    e = assertThrows(TetherException.class,
        () -> store.put(new ByteArrayInputStream(SeededImages.jpeg(100, 6)), MediaType.GIF));
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, e.code());
    assertEquals(List.of(), fileNames());
  }

  @Test
  void put_aMediaTypeTheStoreDoesNotTake_isRejected() throws IOException {
    FileBlobStore store = FileBlobStore.builder(dir).mediaTypes(EnumSet.of(MediaType.PNG)).build();
    TetherException e = assertThrows(TetherException.class, () -> store.put(SeededImages.jpeg(100, 7), MediaType.JPEG));
    assertEquals(ErrorCode.UNSUPPORTED_MEDIA_TYPE, e.code());
    assertEquals(List.of(), fileNames());
  }

  @Test
  void get_missingBlob_throwsNoSuchFile() throws IOException {
    FileBlobStore store = store();
    BlobKey key = BlobKey.forContent(SeededImages.png(10, 8), MediaType.PNG);
    assertThrows(NoSuchFileException.class, () -> store.get(key));
    assertThrows(NoSuchFileException.class, () -> store.open(key));
    assertFalse(store.exists(key));
  }

  @Test
  void get_corruptBlob_throwsBlobCorruptedForGetAndAtTheEndOfOpen() throws IOException {
    FileBlobStore store = store();
    byte[] png = SeededImages.png(20_000, 9);
    BlobKey key = store.put(png, MediaType.PNG);
    byte[] flipped = png.clone();
    flipped[12_345] ^= 1;
    Files.write(store.path(key), flipped);
    BlobCorruptedException e = assertThrows(BlobCorruptedException.class, () -> store.get(key));
    assertEquals(key, e.key());
    try (InputStream in = store.open(key)) {
      assertThrows(BlobCorruptedException.class, in::readAllBytes);
    }
  }

  @Test
  void get_truncatedOrOversizedBlob_isCorrupt() throws IOException {
    FileBlobStore store = FileBlobStore.builder(dir).limits(Limits.builder().maxImageBytes(1000).build()).build();
    byte[] png = SeededImages.png(900, 10);
    BlobKey key = store.put(png, MediaType.PNG);
    Files.write(store.path(key), java.util.Arrays.copyOf(png, 500));
    assertThrows(BlobCorruptedException.class, () -> store.get(key));
    Files.write(store.path(key), SeededImages.png(1001, 10));
    assertThrows(BlobCorruptedException.class, () -> store.get(key));
    try (InputStream in = store.open(key)) {
      assertThrows(BlobCorruptedException.class, in::readAllBytes);
    }
  }

  @Test
  void put_overACorruptBlobOfTheWrongSize_repairsIt() throws IOException {
    FileBlobStore store = store();
    byte[] png = SeededImages.png(900, 11);
    BlobKey key = store.put(png, MediaType.PNG);
    Files.write(store.path(key), java.util.Arrays.copyOf(png, 10));
    assertEquals(key, store.put(png, MediaType.PNG));
    assertArrayEquals(png, store.get(key));
  }

  @Test
  void keys_listsBlobsOnlyNeverTempFilesOrStrangers() throws IOException {
    FileBlobStore store = store();
    BlobKey a = store.put(SeededImages.png(100, 12), MediaType.PNG);
    BlobKey b = store.put(SeededImages.jpeg(100, 13), MediaType.JPEG);
    Files.write(dir.resolve(".tmp-123.partial"), SeededImages.png(100, 14));
    Files.write(dir.resolve(a.sha256Hex().toUpperCase() + ".png"), new byte[1]);
    Files.write(dir.resolve("notes.txt"), new byte[1]);
    List<BlobKey> expected = new ArrayList<>(List.of(a, b));
    expected.sort(null);
    assertEquals(expected, store.keys());
  }

  @Test
  void delete_removesTheBlobOnce() throws IOException {
    FileBlobStore store = store();
    BlobKey key = store.put(SeededImages.png(100, 15), MediaType.PNG);
    assertTrue(store.delete(key));
    assertFalse(store.delete(key));
    assertFalse(store.exists(key));
  }

  @Test
  void collectGarbage_deletesOnlyUnreferencedBlobsOlderThanTheGracePeriod() throws IOException {
    TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));
    FileBlobStore store = FileBlobStore.builder(dir).clock(clock).build();
    BlobKey referencedOld = store.put(SeededImages.png(100, 16), MediaType.PNG);
    BlobKey unreferencedOld = store.put(SeededImages.png(200, 17), MediaType.PNG);
    Files.write(dir.resolve(".tmp-old.partial"), new byte[5]);
    Files.setLastModifiedTime(dir.resolve(".tmp-old.partial"), FileTime.from(clock.instant()));
    Files.write(dir.resolve("stranger.png"), new byte[5]);
    Files.setLastModifiedTime(dir.resolve("stranger.png"), FileTime.from(clock.instant()));
    clock.advance(Duration.ofHours(2));
    BlobKey unreferencedYoung = store.put(SeededImages.png(300, 18), MediaType.PNG);
    Files.write(dir.resolve(".tmp-young.partial"), new byte[5]);
    Files.setLastModifiedTime(dir.resolve(".tmp-young.partial"), FileTime.from(clock.instant()));

    BlobGcResult result = store.collectGarbage(Set.of(referencedOld)::contains, Duration.ofHours(1));

    assertEquals(new BlobGcResult(1, 200, 1, 2), result);
    assertEquals(List.of(referencedOld, unreferencedYoung).stream().sorted().toList(), store.keys());
    assertFalse(store.exists(unreferencedOld));
    assertTrue(Files.exists(dir.resolve(".tmp-young.partial")));
    assertTrue(Files.exists(dir.resolve("stranger.png")), "files that are not blobs are never deleted");
  }

  @Test
  void collectGarbage_keepsAnOldBlobThatAPutJustDeduplicatedAgainst() throws IOException {
    TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));
    FileBlobStore store = FileBlobStore.builder(dir).clock(clock).build();
    byte[] png = SeededImages.png(100, 19);
    BlobKey key = store.put(png, MediaType.PNG);
    clock.advance(Duration.ofDays(3));
    assertEquals(key, store.put(png, MediaType.PNG)); // dedup: no write, but the blob is fresh again
    BlobGcResult result = store.collectGarbage(k -> false, Duration.ofHours(1));
    assertEquals(0, result.deletedBlobs());
    assertArrayEquals(png, store.get(key));
  }

  /** Whatever the interleaving of a put and a GC of the same old, unreferenced blob, a returned put leaves the blob. */
  @Test
  void collectGarbage_racingAPutOfTheSameBytes_neverLosesThePutBlob() throws Exception {
    TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));
    FileBlobStore store = FileBlobStore.builder(dir).clock(clock).durable(false).build();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int i = 0; i < 200; i++) {
        byte[] png = SeededImages.png(64, 100 + i);
        BlobKey old = store.put(png, MediaType.PNG);
        Files.setLastModifiedTime(store.path(old), FileTime.from(clock.instant().minus(Duration.ofDays(1))));
        CountDownLatch start = new CountDownLatch(1);
        Future<BlobKey> put = pool.submit(() -> {
          start.await();
          return store.put(png, MediaType.PNG);
        });
        Future<BlobGcResult> gc = pool.submit(() -> {
          start.await();
          return store.collectGarbage(k -> false, Duration.ofHours(1));
        });
        start.countDown();
        BlobKey key = put.get();
        gc.get();
        assertArrayEquals(png, store.get(key), "iteration " + i);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void collectGarbage_negativeGrace_isACallerMistake() throws IOException {
    FileBlobStore store = store();
    assertThrows(IllegalArgumentException.class, () -> store.collectGarbage(k -> true, Duration.ofSeconds(-1)));
  }

  static final class CountingStream extends InputStream {
    private final InputStream in;
    long count;

    CountingStream(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      count += b < 0 ? 0 : 1;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      count += Math.max(0, n);
      return n;
    }
  }
}
