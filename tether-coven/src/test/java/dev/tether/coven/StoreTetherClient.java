package dev.tether.coven;

import dev.tether.api.Frame;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** The in-process tether side for tests: the client contract over a {@link MemoryTetherStore}. */
final class StoreTetherClient implements TetherClient {
  final MemoryTetherStore store;

  StoreTetherClient(MemoryTetherStore store) {
    this.store = store;
  }

  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    try {
      long seq = store.append(instance, frame);
      return CompletableFuture.completedFuture(new SendReceipt(frame.msgId().orElse(""),
          frame.session().map(s -> s.id()).orElse("default"), seq));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<FramePage> poll(String instance, PollRequest r) {
    FrameQuery q = FrameQuery.builder().channel(r.channel()).sessionId(r.sessionId()).afterSeq(r.afterSeq())
        .types(r.types()).replyToMsgId(r.replyToMsgId()).limit(r.limit()).build();
    return store.waitForFrames(instance, q, Duration.ofMillis(r.waitMs()))
        .thenApply(res -> new FramePage(res.frames(), res.nextSeq(), res.timedOut(), res.gap(), res.oldestSeq()));
  }

  @Override
  public void close() {}
}
