package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tether.api.ErrorCode;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.lifecycle.BeforeTry;

class FileBlobStoreLimitsTest {
  private Path dir;

  @BeforeTry
  void createDir() throws IOException {
    dir = Files.createTempDirectory("blob-limits");
  }

  @AfterTry
  void deleteDir() throws IOException {
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** A blob is stored exactly when its size is within the limit, through either form of put. */
  @Property(tries = 200)
  void put_acceptsExactlyTheSizesWithinTheLimit(
      @ForAll @IntRange(min = 8, max = 4096) int limit, @ForAll @IntRange(min = -8, max = 8) int delta,
      @ForAll boolean stream) throws IOException {
    int size = Math.max(8, limit + delta);
    FileBlobStore store = FileBlobStore.builder(dir)
        .limits(Limits.builder().maxImageBytes(limit).build()).durable(false).build();
    byte[] png = SeededImages.png(size, size * 31L + limit);
    if (size <= limit) {
      BlobKey key = stream ? store.put(new ByteArrayInputStream(png), MediaType.PNG) : store.put(png, MediaType.PNG);
      assertArrayEquals(png, store.get(key));
    } else {
      TetherException e = assertThrows(TetherException.class,
          () -> { if (stream) store.put(new ByteArrayInputStream(png), MediaType.PNG); else store.put(png, MediaType.PNG); });
      assertEquals(ErrorCode.IMAGE_TOO_LARGE, e.code());
      assertEquals(0, store.keys().size());
    }
  }
}
