package dev.tether.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.telegram.testing.TgMessages;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting, stopping and configuring a bridge. */
class BridgeLifecycleTest {
  @TempDir Path dir;

  @Test
  void close_stopsEveryBridgeThread_rightAfterAnAnswer() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start();
      h.api.addMessage(TgMessages.text(BridgeHarness.CHAT, "hi"));
      h.api.awaitText(BridgeHarness.CHAT, "You said: hi");
      long t0 = System.nanoTime();
      h.stopBridge();
      long ms = (System.nanoTime() - t0) / 1_000_000;
      List<String> alive = Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().startsWith("tether-telegram")).map(Thread::getName).toList();
      assertEquals(List.of(), alive);
      assertTrue(ms < 10_000, "close took " + ms + " ms");
    }
  }

  @Test
  void secondBridgeOnTheSameStateDir_isRefused_untilTheFirstCloses() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      TelegramBridge first = h.start();
      TelegramBridge second = h.builder().build();
      IOException e = assertThrows(IOException.class, second::start);
      assertTrue(e.getMessage().contains("another Telegram bridge"), e.getMessage());
      first.close();
      try (TelegramBridge third = h.builder().build()) {
        third.start();
      }
    }
  }

  @Test
  void startTwice_orAfterClose_isAnIllegalState() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      TelegramBridge bridge = h.start();
      assertThrows(IllegalStateException.class, bridge::start);
      bridge.close();
      bridge.close(); // idempotent
      assertThrows(IllegalStateException.class, bridge::start);
    }
  }

  @Test
  void builder_failsFast_namingTheSetting() {
    TelegramBridge.Builder b = TelegramBridge.builder();
    assertEquals("allowedChats must name at least one chat",
        assertThrows(IllegalArgumentException.class, () -> b.allowedChats(Set.of())).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> b.pollWait(Duration.ofSeconds(90))).getMessage()
        .startsWith("pollWait must be in"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> b.apiUrl(java.net.URI.create("ftp://x"))).getMessage()
        .startsWith("apiUrl must be an http or https URL"));
    assertEquals("client is required", assertThrows(IllegalStateException.class, b::build).getMessage());
  }
}
