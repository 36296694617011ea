package dev.tether.mcp;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.TetherStore;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The in-process {@link TetherClient}: sends by appending to a {@link TetherStore} that the
 * instance's agent reads, and reads with the store's own asynchronous wait.
 *
 * <p>Design. Reads go through the shared {@link EgressReadLoop} (egress only, rounds past the
 * session's own frames, {@code gap} kept across rounds); each round is one store query or wait.
 * No thread is held while waiting. Thread-safe.
 */
public final class StoreTetherClient implements TetherClient {
  private final TetherStore store;
  private final Predicate<String> knownInstances;
  private final LongSupplier nanoTime;

  /**
   * @param store the frames of every instance
   * @param knownInstances which instance names exist; others are {@link UnknownInstanceException}
   *     (the store itself creates instances on first use, so it cannot tell)
   */
  public StoreTetherClient(TetherStore store, Predicate<String> knownInstances) {
    this(store, knownInstances, System::nanoTime);
  }

  StoreTetherClient(TetherStore store, Predicate<String> knownInstances, LongSupplier nanoTime) {
    this.store = Objects.requireNonNull(store, "store");
    this.knownInstances = Objects.requireNonNull(knownInstances, "knownInstances");
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
  }

  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    try {
      requireKnown(instance);
      String msgId = frame.msgId().orElseThrow(() -> new IllegalArgumentException("frame has no msg_id"));
      String sessionId = frame.session().map(SessionKey::id)
          .orElseThrow(() -> new IllegalArgumentException("frame has no session"));
      long seq = store.append(instance, frame);
      return CompletableFuture.completedFuture(new SendReceipt(msgId, sessionId, seq));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<ReadResult> read(String instance, ReadRequest request) {
    try {
      requireKnown(instance);
      FrameQuery query = FrameQuery.builder()
          .session(request.session())
          .afterSeq(request.afterSeq())
          .types(Set.copyOf(request.types()))
          .replyToMsgId(request.replyToMsgId().orElse(null))
          .limit(request.limit())
          .build();
      // Cancelling the answer (the MCP request was cancelled) removes the store's wait at once.
      return EgressReadLoop.read(request, (afterSeq, waitNanos) -> {
        FrameQuery q = query.withAfterSeq(afterSeq);
        CompletableFuture<QueryResult> page = waitNanos > 0
            ? store.waitForFrames(instance, q, Duration.ofNanos(waitNanos))
            : CompletableFuture.completedFuture(store.query(instance, q));
        return EgressReadLoop.page(page, StoreTetherClient::page, t -> t);
      }, nanoTime);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static ReadResult page(QueryResult r) {
    return new ReadResult(r.frames(), r.nextSeq(), r.timedOut(), r.gap(), r.gap() ? r.oldestSeq() : 0);
  }

  private void requireKnown(String instance) {
    Objects.requireNonNull(instance, "instance");
    if (instance.isEmpty() || !knownInstances.test(instance)) {
      throw new UnknownInstanceException(instance);
    }
  }

  /** For diagnostics. */
  @Override
  public String toString() {
    return "StoreTetherClient{" + store + "}";
  }
}
