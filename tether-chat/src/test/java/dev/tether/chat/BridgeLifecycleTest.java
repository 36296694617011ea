package dev.tether.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BridgeLifecycleTest {
  /** A running part that counts its closes. */
  static final class Running implements AutoCloseable {
    final AtomicInteger closes = new AtomicInteger();

    @Override
    public void close() {
      closes.incrementAndGet();
    }
  }

  @Test
  void startsOnce_readsWhileRunning_closesOnce() throws Exception {
    BridgeLifecycle<Running> lifecycle = new BridgeLifecycle<>();
    Running running = new Running();
    assertEquals("not yet", lifecycle.read(r -> "running", "not yet"));

    lifecycle.start(() -> running);
    assertEquals("running", lifecycle.read(r -> "running", "not yet"));
    IllegalStateException twice = assertThrows(IllegalStateException.class, () -> lifecycle.start(Running::new));
    assertEquals("the bridge is already started", twice.getMessage());

    lifecycle.close();
    lifecycle.close();
    assertEquals(1, running.closes.get());
    assertEquals("closed", lifecycle.read(r -> "running", "closed"));
    IllegalStateException afterClose = assertThrows(IllegalStateException.class, () -> lifecycle.start(Running::new));
    assertEquals("the bridge is closed", afterClose.getMessage());
  }

  @Test
  void aFailedStart_leavesTheBridgeStartable() throws Exception {
    BridgeLifecycle<Running> lifecycle = new BridgeLifecycle<>();
    IOException failed = assertThrows(IOException.class, () -> lifecycle.start(() -> {
      throw new IOException("state directory locked");
    }));
    assertEquals("state directory locked", failed.getMessage());

    lifecycle.start(Running::new);
    assertEquals(true, lifecycle.read(r -> true, false));
    lifecycle.close();
  }

  @Test
  void closeBeforeStart_refusesLaterStarts() {
    BridgeLifecycle<Running> lifecycle = new BridgeLifecycle<>();
    lifecycle.close();
    assertThrows(IllegalStateException.class, () -> lifecycle.start(Running::new));
  }
}
