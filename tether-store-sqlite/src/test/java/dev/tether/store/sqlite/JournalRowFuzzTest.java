package dev.tether.store.sqlite;

import dev.tether.api.testing.TestFrames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.SessionKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The journal's row decoder reads bytes from a file that may be damaged or hostile: whatever the
 * bytes, it returns a frame carrying the row's seq or fails with an IOException, nothing else.
 */
class JournalRowFuzzTest {
  static final Path FILE = Path.of("journal.db");

  @FuzzTest(maxDuration = "30s")
  void decodeRow_onlyEverFailsWithIOException(byte[] data) {
    try {
      Frame f = SqliteJournal.decodeRow(FILE, "vm", 7, data);
      assertEquals(7, f.seq());
    } catch (IOException expected) {
      assertTrue(expected.getMessage().contains("vm/7"), expected.getMessage());
    }
  }

  @Test
  void decodeRow_roundTripsAStoredFrame() throws IOException {
    Frame f = TestFrames.done(SessionKey.host("a"), "host-1", "hi").withSeq(7);
    assertEquals(f, SqliteJournal.decodeRow(FILE, "vm", 7, FrameCodec.standard().write(f)));
  }

  @Test
  void decodeRow_rejectsTruncatedNullAndOversizedRows() {
    byte[] good = FrameCodec.standard().write(TestFrames.done(SessionKey.host("a"), null, "hi").withSeq(7));
    byte[] truncated = java.util.Arrays.copyOf(good, good.length - 3);
    assertThrows(IOException.class, () -> SqliteJournal.decodeRow(FILE, "vm", 7, truncated));
    assertThrows(IOException.class, () -> SqliteJournal.decodeRow(FILE, "vm", 7, null));
    assertThrows(IOException.class, () -> SqliteJournal.decodeRow(FILE, "vm", 7, new byte[0]));
    byte[] deep = ("{\"type\":\"x\",\"seq\":7,\"payload\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}")
        .getBytes(StandardCharsets.UTF_8);
    assertThrows(IOException.class, () -> SqliteJournal.decodeRow(FILE, "vm", 7, deep));
  }
}
