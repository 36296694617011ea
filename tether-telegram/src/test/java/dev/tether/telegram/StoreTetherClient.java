package dev.tether.telegram;

import dev.tether.api.Frame;
import dev.tether.api.MsgIds;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import dev.tether.images.FrameValidator;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process tether host for tests: sends are validated like the HTTP host validates them and
 * appended to a {@link MemoryTetherStore}; polls are the store's waits. {@link #failSends} makes
 * the host unreachable for a number of sends (an {@link IOException}, as a remote client reports
 * it). Thread-safe.
 */
final class StoreTetherClient implements TetherClient {
  private final MemoryTetherStore store;
  private final FrameValidator validator = FrameValidator.standard();
  private final AtomicInteger failingSends = new AtomicInteger();

  StoreTetherClient(MemoryTetherStore store) {
    this.store = store;
  }

  void failSends(int times) {
    failingSends.set(times);
  }

  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    if (failingSends.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return CompletableFuture.failedFuture(new IOException("connection refused (test)"));
    }
    try {
      validator.validate(frame);
      Frame stored = frame.msgId().isPresent() ? frame : frame.toBuilder().msgId(MsgIds.host()).build();
      long seq = store.append(instance, stored);
      return CompletableFuture.completedFuture(
          new SendReceipt(stored.msgId().orElseThrow(), stored.session().map(s -> s.id()).orElse("default"), seq));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<FramePage> poll(String instance, PollRequest r) {
    FrameQuery query = FrameQuery.builder().channel(r.channel()).sessionId(r.sessionId()).afterSeq(r.afterSeq())
        .types(r.types()).replyToMsgId(r.replyToMsgId()).limit(r.limit()).build();
    CompletableFuture<QueryResult> wait = r.waitMs() == 0
        ? CompletableFuture.completedFuture(store.query(instance, query))
        : store.waitForFrames(instance, query, Duration.ofMillis(r.waitMs()));
    return wait.thenApply(q -> new FramePage(q.frames(), q.nextSeq(), q.timedOut(), q.gap(), q.oldestSeq()));
  }

  @Override
  public void close() {}
}
