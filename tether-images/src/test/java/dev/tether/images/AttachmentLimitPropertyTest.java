package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

class AttachmentLimitPropertyTest {
  private static final int LIMIT = 64;
  private static Path root;
  private static final AtomicInteger RUN = new AtomicInteger();

  @BeforeContainer
  static void createRoot() throws IOException {
    root = Files.createTempDirectory("attachment-limits");
  }

  @AfterContainer
  static void deleteRoot() throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static AttachmentCatalog fresh(int maxReadChars) throws IOException {
    return AttachmentCatalog.builder(root.resolve("run-" + RUN.incrementAndGet()))
        .maxUploadBytes(LIMIT).maxReadChars(maxReadChars).open();
  }

  @Property(tries = 150)
  void save_acceptsAnUploadIfAndOnlyIfItIsWithinTheLimit(@ForAll @IntRange(min = 0, max = 3 * LIMIT) int size)
      throws IOException {
    AttachmentCatalog catalog = fresh(100);
    AttachmentUpload upload = new AttachmentUpload("f.bin", Base64.getEncoder().encodeToString(new byte[size]), null);
    if (size <= LIMIT) {
      assertEquals(size, catalog.save(upload).size());
    } else {
      assertEquals(MediaException.Reason.UPLOAD_TOO_LARGE,
          assertThrows(MediaException.class, () -> catalog.save(upload)).reason());
      assertTrue(catalog.list().isEmpty());
    }
  }

  @Property(tries = 150)
  void read_windowsConcatenateToTheWholeText(
      @ForAll @StringLength(max = 40) String text, @ForAll @IntRange(min = 1, max = 7) int window) throws IOException {
    String clean = text.replace('\0', ' ');
    AttachmentCatalog catalog = fresh(window);
    byte[] utf8 = clean.getBytes(StandardCharsets.UTF_8);
    if (utf8.length > LIMIT) {
      return;
    }
    catalog.save(new AttachmentUpload("t.txt", Base64.getEncoder().encodeToString(utf8), "text/plain"));
    String decoded = new String(utf8, StandardCharsets.UTF_8); // lone surrogates became '?'
    StringBuilder all = new StringBuilder();
    long offset = 0;
    AttachmentText part;
    do {
      part = catalog.read("t.txt", offset, 1000);
      assertTrue(part.text().codePointCount(0, part.text().length()) <= window);
      all.append(part.text());
      offset = part.nextOffset();
    } while (part.hasMore());
    assertEquals(decoded, all.toString());
    assertEquals(decoded.codePointCount(0, decoded.length()), part.totalChars());
  }
}
