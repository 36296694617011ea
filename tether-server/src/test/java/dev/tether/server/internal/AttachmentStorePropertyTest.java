package dev.tether.server.internal;

import static dev.tether.api.testing.QtGens.anyOf;
import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.media.Attachment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Properties of the host's attachment store on real files: an upload is stored if and only if it
 * is within the size limit, and whatever the file name and session (traversal, separators,
 * control characters, dots, any Unicode), the file lands as a plain name directly inside that
 * session's directory under the attachments root, and reads back under the name it was given.
 */
class AttachmentStorePropertyTest {
  private static final int LIMIT = 48;
  private static final AtomicInteger RUN = new AtomicInteger();

  @TempDir static Path root;

  private static InstanceRegistry.Entry freshInstance() {
    try {
      int run = RUN.incrementAndGet();
      return new InstanceRegistry.Entry("vm" + run, Files.createDirectories(root.resolve("ws-" + run)), Instant.EPOCH);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void save_acceptsIfAndOnlyIfWithinTheLimit() {
    AttachmentStore store = AttachmentStore.inDirectory(root.resolve("attachments"), LIMIT);
    qt().withExamples(200).forAll(integers().between(0, 3 * LIMIT)).checkAssert(size -> {
      InstanceRegistry.Entry vm = freshInstance();
      SessionKey s = SessionKey.host("s");
      try {
        Attachment a = store.save(vm, s, "f.bin", "application/octet-stream", new byte[size]);
        assertTrue(size <= LIMIT, "stored " + size + " bytes over the limit of " + LIMIT);
        assertEquals((long) size, a.size());
        assertEquals(size, store.read(vm, s, a).length);
      } catch (TetherException e) {
        assertTrue(size > LIMIT, "refused " + size + " bytes within the limit: " + e.getMessage());
        assertEquals(ErrorCode.UPLOAD_TOO_LARGE, e.code());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Test
  void anyNameAndSession_landsAsAPlainFileInsideTheSessionDirectory() {
    AttachmentStore store = AttachmentStore.inDirectory(root.resolve("attachments"), LIMIT);
    var hostile = anyOf(charsOf("./\\\u0000:%~ \t\n*?<>|\"'"), chars('a', 'e'), chars('\u00e0', '\u00e9'), chars('\u4e00', '\u4e03'),
        chars('\ud800', '\ud801'));
    qt().withExamples(300).forAll(strings(hostile, 0, 40), strings(hostile, 1, 30), strings(hostile, 1, 12))
        .checkAssert((name, sessionId, channel) -> {
          InstanceRegistry.Entry vm = freshInstance();
          SessionKey s = new SessionKey(channel, sessionId);
          try {
            Attachment a = store.save(vm, s, name, "text/plain", new byte[] {'x'});
            Path sessions = root.resolve("attachments").resolve(vm.id()).resolve(AttachmentStore.generation(vm));
            try (var dirs = Files.list(sessions)) {
              Path only = dirs.reduce((x, y) -> {
                throw new AssertionError("two session directories for one session: " + x + ", " + y);
              }).orElseThrow();
              assertEquals(sessions, only.getParent());
              Path file = only.resolve(a.fileName());
              assertEquals(only, file.normalize().getParent(), "'" + name + "' escaped as '" + a.fileName() + "'");
              assertTrue(Files.isRegularFile(file), file.toString());
            }
            assertEquals(a, store.find(vm, s, a.fileName()));
            assertEquals(1, store.read(vm, s, a).length);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }
}
