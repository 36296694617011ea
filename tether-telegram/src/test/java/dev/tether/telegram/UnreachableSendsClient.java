package dev.tether.telegram;

import dev.tether.api.Frame;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link TetherClient} whose host can be made unreachable for a number of sends
 * ({@link #failSends}): those fail with an {@link IOException}, as the HTTP client reports a host
 * it cannot reach; everything else goes to the wrapped client. Thread-safe.
 */
final class UnreachableSendsClient implements TetherClient {
  private final TetherClient delegate;
  private final AtomicInteger failingSends = new AtomicInteger();

  UnreachableSendsClient(TetherClient delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The next {@code times} sends fail. */
  void failSends(int times) {
    failingSends.set(times);
  }

  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    if (failingSends.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return CompletableFuture.failedFuture(new IOException("connection refused (test)"));
    }
    return delegate.send(instance, frame);
  }

  @Override
  public CompletableFuture<FramePage> poll(String instance, PollRequest request) {
    return delegate.poll(instance, request);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
