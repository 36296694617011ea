package dev.tether.media;

import dev.tether.api.TetherException;
import dev.tether.api.ErrorCode;
import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttachmentLimitPropertyTest {
  private static final int LIMIT = 64;
  private static final AtomicInteger RUN = new AtomicInteger();

  @TempDir
  static Path root;

  /** A catalog in a directory of its own: every generated example starts empty. */
  private static AttachmentCatalog fresh(int maxReadChars) {
    try {
      return AttachmentCatalog.builder(root.resolve("run-" + RUN.incrementAndGet()))
          .maxUploadBytes(LIMIT).maxReadChars(maxReadChars).open();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void save_acceptsAnUploadIfAndOnlyIfItIsWithinTheLimit() {
    qt().withExamples(150).forAll(integers().between(0, 3 * LIMIT)).checkAssert(size -> {
      AttachmentCatalog catalog = fresh(100);
      AttachmentUpload upload = new AttachmentUpload("f.bin", Base64.getEncoder().encodeToString(new byte[size]), null);
      try {
        if (size <= LIMIT) {
          assertEquals((long) size, catalog.save(upload).size());
        } else {
          assertEquals(ErrorCode.UPLOAD_TOO_LARGE,
              assertThrows(TetherException.class, () -> catalog.save(upload)).code());
          assertTrue(catalog.list().isEmpty());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Test
  void read_windowsConcatenateToTheWholeText() {
    qt().withExamples(150).forAll(strings(chars('\u0000', '\uffff'), 0, 40), integers().between(1, 7))
        .checkAssert((text, window) -> {
          String clean = text.replace('\0', ' ');
          AttachmentCatalog catalog = fresh(window);
          byte[] utf8 = clean.getBytes(StandardCharsets.UTF_8);
          if (utf8.length > LIMIT) {
            return;
          }
          try {
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
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }
}
