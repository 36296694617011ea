package dev.tether.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scan reads runs of good lines with one parser and hands every other line to the line-by-line
 * reading: whatever the mix, it must load exactly the turns, and skip exactly the lines, that
 * reading each line on its own does.
 */
class SessionFileScanTest {
  private static final String KEY = "a".repeat(64) + ".png";
  private static final String CANONICAL = "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"";
  private static final String CANONICAL_END = "\"}]}";
  private static final String[] LINES = {
      // in the writer's own form: read by the fast path
      CANONICAL + "caf\u00e9 \\\" \\n \ud83d\ude00" + CANONICAL_END,
      "{\"role\":\"assistant\",\"ts\":\"2026-01-01T00:00:00.5Z\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"bash\",\"input\":{\"cmd\":\"ls\"}}]}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"user\":\"Alice\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}",
      "{\"role\":\"assistant\",\"content\":[{\"type\":\"image\",\"key\":\"" + KEY + "\",\"media_type\":\"image/png\",\"size\":3}]}",
      "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"bash\",\"input\":{\"cmd\":\"ls\"}}]}",
      "  {\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"spaced\"}]} \t\r",
      "{\"role\":\"user\",\"x\":{\"y\":1},\"content\":[{\"type\":\"text\",\"text\":\"unknown field\"}]}",
      "",
      "   ",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]} {}",
      "{\"role\":\"user\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"b\",\"input\":{\"k\":1,\"k\":2}}]}",
      "{\"role\":\"user\",\"x\":1,\"x\":2,\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"content\":[]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"" + "long ".repeat(60) + "\"}]}",
      "not json",
      "[1,2]",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"unterminated}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"caf\u00e9 \\u00e9\"}]}",
      // canonical lines of exactly the even rounds' line limit (200 bytes) and one byte more
      CANONICAL + "x".repeat(200 - CANONICAL.length() - CANONICAL_END.length()) + CANONICAL_END,
      CANONICAL + "x".repeat(201 - CANONICAL.length() - CANONICAL_END.length()) + CANONICAL_END,
      "INVALID UTF-8",
  };
  /** The line's bytes; "INVALID UTF-8" is a canonical line holding an encoded surrogate and a raw NUL. */
  private static byte[] bytes(String line) {
    if (!line.equals("INVALID UTF-8")) {
      return line.getBytes(StandardCharsets.UTF_8);
    }
    byte[] out = (CANONICAL + "\u0000\u0000\u0000 " + CANONICAL_END).getBytes(StandardCharsets.ISO_8859_1);
    int at = CANONICAL.length();
    out[at] = (byte) 0xed; // U+D800 as UTF-8: not valid UTF-8
    out[at + 1] = (byte) 0xa0;
    out[at + 2] = (byte) 0x80;
    out[at + 3] = 0; // a raw NUL in a string
    return out;
  }

  @Test
  void anyMixOfLines_loadsAndSkipsExactlyWhatReadingEachLineAloneDoes(@TempDir Path dir) throws Exception {
    Random random = new Random(24);
    for (int round = 0; round < 40; round++) {
      int maxLineBytes = round % 2 == 0 ? 200 : 1 << 20;
      ByteArrayOutputStream file = new ByteArrayOutputStream();
      List<SessionTurn> expected = new ArrayList<>();
      int expectedSkipped = 0;
      int lines = 50 + random.nextInt(round < 5 ? 50 : 3000); // past the 64 KiB chunk from round 5 on
      for (int i = 0; i < lines; i++) {
        String line = random.nextInt(3) == 0 ? LINES[random.nextInt(LINES.length)] : LINES[random.nextInt(5)];
        byte[] bytes = bytes(line);
        file.write(bytes);
        file.write('\n');
        if (line.isBlank()) {
          continue;
        }
        if (bytes.length > maxLineBytes) {
          expectedSkipped++;
          continue;
        }
        try {
          expected.add(SessionLineCodec.read(bytes, 0, bytes.length));
        } catch (SessionLineException e) {
          expectedSkipped++;
        }
      }
      boolean torn = random.nextBoolean();
      if (torn) {
        file.write(LINES[0].getBytes(StandardCharsets.UTF_8), 0, 20);
        expectedSkipped++;
      }
      Path path = dir.resolve("s" + round + ".jsonl");
      Files.write(path, file.toByteArray());
      SessionFileScan scan = SessionFileScan.read(path, maxLineBytes);
      assertEquals(expected, scan.turns(), "round " + round);
      assertEquals(expectedSkipped, scan.skippedLines(), "round " + round);
      assertEquals(file.size() - (torn ? 20 : 0), scan.completeBytes(), "round " + round);
    }
  }
}
