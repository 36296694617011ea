package dev.tether.store;

import static dev.tether.api.testing.TestFrames.done;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tether.api.SessionKey;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A subscription never loses a frame silently: a {@code next()} future that the caller completed
 * or cancelled does not swallow the frame offered after it, and {@code next(Duration)} returns a
 * frame the store already claimed for it even when its timeout passes meanwhile.
 */
class SubscriptionHandoffTest {
  static final SessionKey A = SessionKey.host("a");

  private static long seqOf(SubscriptionEvent e) {
    return ((SubscriptionEvent.Delivered) e).frame().seq();
  }

  @Test
  void nextCancelledByCaller_doesNotSwallowTheNextFrame() throws Exception {
    try (MemoryTetherStore s = MemoryTetherStore.create(); Subscription sub = s.subscribe("vm", 8)) {
      sub.next().cancel(false);
      s.append("vm", done(A, null, "one"));
      SubscriptionEvent e = sub.next().get(30, TimeUnit.SECONDS);
      assertEquals(1L, seqOf(e));
      assertEquals(0, sub.lostFrames());
    }
  }

  @Test
  void nextTimedOutWithOrTimeout_doesNotSwallowTheNextFrame() throws Exception {
    try (MemoryTetherStore s = MemoryTetherStore.create(); Subscription sub = s.subscribe("vm", 8)) {
      CompletableFuture<SubscriptionEvent> first = sub.next().orTimeout(1, TimeUnit.MILLISECONDS);
      while (!first.isDone()) {
        Thread.sleep(1);
      }
      s.append("vm", done(A, null, "one"));
      assertEquals(1L, seqOf(sub.next().get(30, TimeUnit.SECONDS)));
    }
  }

  @Test
  void nextCompletedByCaller_doesNotSwallowTheNextFrame() throws Exception {
    try (MemoryTetherStore s = MemoryTetherStore.create(); Subscription sub = s.subscribe("vm", 8)) {
      sub.next().complete(new SubscriptionEvent.Closed("caller gave up"));
      s.append("vm", done(A, null, "one"));
      assertEquals(1L, seqOf(sub.next().get(30, TimeUnit.SECONDS)));
    }
  }
}
