package dev.tether.client;

import dev.tether.api.Frame;
import java.util.concurrent.CompletableFuture;

/**
 * A tether host as its clients see it: send a frame into an instance, poll an instance's frames.
 *
 * <p>Bridges (MCP tools, a Telegram bot, a coven agent) are written against this interface, so the
 * same code runs in-process over a store or remotely over a host's HTTP API. Both operations are
 * asynchronous: a long-poll returns a future that completes when frames arrive or the wait ends and
 * never holds a thread while it waits. Cancelling a poll's future ends the wait.
 *
 * <p>Failures complete the future exceptionally (possibly wrapped in a
 * {@link java.util.concurrent.CompletionException}): {@link dev.tether.api.TetherException} with
 * the host's code for a frame or request the host refuses (an unknown instance included), and
 * {@link java.io.IOException} when the host cannot be reached. Implementations are thread-safe.
 */
public interface TetherClient extends AutoCloseable {

  /** Sends {@code frame} into {@code instance}; completes once the host has stored it. */
  CompletableFuture<SendReceipt> send(String instance, Frame frame);

  /**
   * The frames of {@code instance} matching {@code request}: at once when some exist, otherwise
   * when the first one is stored or {@link PollRequest#waitMs()} has passed (then
   * {@link FramePage#timedOut()} is set).
   */
  CompletableFuture<FramePage> poll(String instance, PollRequest request);

  /** Releases the client's resources; pending futures fail. Idempotent. */
  @Override
  void close();
}
