package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.tether.api.ErrorCode;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileBlobStoreLimitsTest {
  private static final AtomicInteger RUN = new AtomicInteger();

  @TempDir
  static Path root;

  /** A blob is stored exactly when its size is within the limit, through either form of put. */
  @Test
  void put_acceptsExactlyTheSizesWithinTheLimit() {
    qt().withExamples(200).forAll(integers().between(8, 4096), integers().between(-8, 8), booleans().all())
        .checkAssert((limit, delta, stream) -> {
          int size = Math.max(8, limit + delta);
          byte[] png = SeededImages.png(size, size * 31L + limit);
          try {
            // A store directory of its own: every generated example starts empty.
            FileBlobStore store = FileBlobStore.builder(root.resolve("run-" + RUN.incrementAndGet()))
                .limits(Limits.builder().maxImageBytes(limit).build()).durable(false).build();
            if (size <= limit) {
              BlobKey key = stream ? store.put(new ByteArrayInputStream(png), MediaType.PNG) : store.put(png, MediaType.PNG);
              assertArrayEquals(png, store.get(key));
            } else {
              TetherException e = assertThrows(TetherException.class,
                  () -> { if (stream) store.put(new ByteArrayInputStream(png), MediaType.PNG); else store.put(png, MediaType.PNG); });
              assertEquals(ErrorCode.IMAGE_TOO_LARGE, e.code());
              assertEquals(0, store.keys().size());
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }
}
