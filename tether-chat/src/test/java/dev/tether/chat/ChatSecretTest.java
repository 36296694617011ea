package dev.tether.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.strings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChatSecretTest {
  private static final String VALUE = "xoxb-1111-2222-secret-value";

  @TempDir Path dir;

  @Test
  void fileOpenToOthers_isRefusedWithTheFix_andTheMessageNeverHoldsTheSecret() throws IOException {
    Path file = dir.resolve("token");
    Files.writeString(file, VALUE + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    IOException e = assertThrows(IOException.class, () -> ChatSecret.fromFile("Slack bot token", file));
    assertTrue(e.getMessage().contains("chmod 600 " + file), e.getMessage());
    assertFalse(e.getMessage().contains(VALUE));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertEquals(VALUE, ChatSecret.fromFile("Slack bot token", file).reveal());
  }

  @Test
  void emptyHugeOrSpacedSecrets_areRefused_withoutEchoingThem() throws IOException {
    Path file = dir.resolve("token");
    for (String bad : new String[] {"", "short", "two words here", "x".repeat(5000)}) {
      Files.writeString(file, bad);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      IOException e = assertThrows(IOException.class, () -> ChatSecret.fromFile("secret", file));
      assertFalse(!bad.isEmpty() && e.getMessage().contains(bad), e.getMessage());
    }
    assertThrows(IOException.class, () -> ChatSecret.fromFile("secret", dir));
  }

  @Test
  void redact_removesEveryOccurrence_andToStringNeverShowsIt() {
    ChatSecret secret = ChatSecret.of("bot token", VALUE);
    qt().forAll(strings().basicLatinAlphabet().ofLengthBetween(0, 40), strings().basicLatinAlphabet().ofLengthBetween(0, 40))
        .checkAssert((a, b) -> assertFalse(secret.redact(a + VALUE + b + VALUE).contains(VALUE)));
    assertFalse(secret.toString().contains(VALUE));
  }
}
