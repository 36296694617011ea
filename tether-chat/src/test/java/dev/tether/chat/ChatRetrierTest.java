package dev.tether.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ChatRetrierTest {
  private final ChatStopper stopper = new ChatStopper();
  private final ChatRetrier retrier = new ChatRetrier(Duration.ofMillis(5), Duration.ofMillis(20),
      new ChatLog("dev.tether.chat.test", s -> s), stopper);

  @Test
  void a429_waitsItsRetryAfter_thenSucceeds() throws IOException {
    AtomicInteger calls = new AtomicInteger();
    long start = System.nanoTime();
    String result = retrier.call("post", () -> {
      if (calls.incrementAndGet() == 1) {
        throw new ChannelException("post", 429, "ratelimited", 1);
      }
      return "ok";
    });
    assertEquals("ok", result);
    assertEquals(2, calls.get());
    assertTrue(System.nanoTime() - start >= 950_000_000L, "Retry-After: 1 was honoured");
  }

  @Test
  void serverErrorsAndNetworkFailures_areRetriedWithBackoff_permanentRefusalsAreNot() throws IOException {
    AtomicInteger calls = new AtomicInteger();
    assertEquals("ok", retrier.call("post", () -> {
      int n = calls.incrementAndGet();
      if (n == 1) {
        throw new ChannelException("post", 503, "busy", 0);
      }
      if (n == 2) {
        throw new IOException("connection reset");
      }
      return "ok";
    }));
    assertEquals(3, calls.get());
    AtomicInteger refused = new AtomicInteger();
    ChannelException e = assertThrows(ChannelException.class, () -> retrier.call("post", () -> {
      refused.incrementAndGet();
      throw new ChannelException("post", 403, "not_in_channel", 0);
    }));
    assertEquals(403, e.errorCode());
    assertEquals(1, refused.get());
  }

  @Test
  void aStop_endsTheWaitAtOnce() {
    stopper.stop();
    assertThrows(InterruptedIOException.class, () -> retrier.call("post", () -> "never"));
  }
}
