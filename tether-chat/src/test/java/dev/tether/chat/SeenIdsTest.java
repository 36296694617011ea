package dev.tether.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SeenIds}: repeats recognised across a reopen (a bridge restart), bounded, hostile ids kept off the file. */
class SeenIdsTest {
  @TempDir Path dir;

  @Test
  void anIdSeenBeforeARestart_isARepeatAfterIt_andTheFileIsOwnerOnly() throws Exception {
    Path file = dir.resolve("seen-ids");
    SeenIds seen = SeenIds.open(file, 100);
    assertTrue(seen.firstTime("wamid.HBgLNDkxNTExMjM0NTY3OBUCABIYFjNFQjA="));
    assertFalse(seen.firstTime("wamid.HBgLNDkxNTExMjM0NTY3OBUCABIYFjNFQjA="));
    assertTrue(seen.firstTime("event:Ev0123ABC"));

    SeenIds reopened = SeenIds.open(file, 100);
    assertFalse(reopened.firstTime("wamid.HBgLNDkxNTExMjM0NTY3OBUCABIYFjNFQjA="), "the redelivery after a restart is a repeat");
    assertFalse(reopened.firstTime("event:Ev0123ABC"));
    assertTrue(reopened.firstTime("event:Ev0123ABD"));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
  }

  @Test
  void hostileIds_areRememberedInMemoryOnly_andCannotForgeLines() throws Exception {
    Path file = dir.resolve("seen-ids");
    SeenIds seen = SeenIds.open(file, 100);
    String forged = "x\nevent:Ev9";
    assertTrue(seen.firstTime(forged));
    assertFalse(seen.firstTime(forged), "still a repeat while the bridge runs");
    assertTrue(seen.firstTime("a".repeat(SeenIds.MAX_ID_CHARS + 1)));
    assertTrue(seen.firstTime("ünïcode"));
    assertTrue(Files.notExists(file) || Files.readString(file, StandardCharsets.ISO_8859_1).isEmpty(), "nothing hostile on disk");
    assertTrue(SeenIds.open(file, 100).firstTime("event:Ev9"), "no forged line was written");
  }

  @Test
  void aDamagedFile_isReadAsFarAsItMakesSense() throws Exception {
    Path file = dir.resolve("seen-ids");
    Files.write(file, new byte[] {'o', 'k', '1', '\n', 0, 1, 2, '\n', 'o', 'k', '2'});
    SeenIds seen = SeenIds.open(file, 100);
    assertFalse(seen.firstTime("ok1"));
    assertFalse(seen.firstTime("ok2"));
    assertEquals(2, seen.size());
  }

  @Test
  void theNewestMaxIds_areRemembered_andTheFileStaysBounded() {
    qt().withExamples(30).forAll(integers().between(1, 20), lists().of(integers().between(0, 60)).ofSizeBetween(0, 100))
        .checkAssert((max, numbers) -> {
          try {
            Path file = Files.createTempFile(dir, "seen", ".ids");
            Files.delete(file);
            SeenIds seen = SeenIds.open(file, max);
            for (int n : numbers) {
              seen.firstTime("id" + n);
            }
            assertTrue(seen.size() <= max);
            SeenIds reopened = SeenIds.open(file, max);
            assertEquals(seen.size(), reopened.size());
            if (!numbers.isEmpty()) {
              assertFalse(reopened.firstTime("id" + numbers.get(numbers.size() - 1)), "the newest id survives a reopen");
            }
            List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
            assertTrue(lines.size() <= 2 * max, "the file holds at most twice max lines: " + lines.size());
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }
}
