package dev.tether.telegram.internal;

import dev.tether.chat.ChatStopper;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;

/** The bridge's stop signal: the core's {@link ChatStopper}, under the name the Telegram code uses. Thread-safe. */
public final class Stopper {
  private final ChatStopper core = new ChatStopper();

  /** The core stopper, for the core's loops. */
  public ChatStopper core() {
    return core;
  }

  public void stop() {
    core.stop();
  }

  public boolean stopped() {
    return core.stopped();
  }

  /** Waits {@code ms}; throws when the bridge stops meanwhile (or had stopped). */
  public void sleep(long ms) throws InterruptedIOException {
    core.sleep(ms);
  }

  /** Registers the future a loop waits on, so that a stop cancels it; returns it. */
  public <T> CompletableFuture<T> waitingOn(CompletableFuture<T> future) {
    return core.waitingOn(future);
  }

  /** Throws when the bridge is stopping. */
  public void check() throws InterruptedIOException {
    core.check();
  }
}
