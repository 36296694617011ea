package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Path;

class BlobKeyFuzzTest {
  private static final Path DIR = Path.of("/blobs");

  /** Whatever the text, parse either rejects it or yields a key that names a file directly in the directory. */
  @FuzzTest(maxDuration = "10s")
  void parse_neverEscapesTheDirectory(FuzzedDataProvider data) {
    String text = data.consumeRemainingAsString();
    BlobKey.parse(text).ifPresent(key -> {
      assertEquals(text, key.fileName());
      assertEquals(DIR, DIR.resolve(key.fileName()).normalize().getParent());
    });
  }
}
