package dev.tether.mcp;

import dev.tether.api.Frame;
import dev.tether.api.TetherException;
import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.TetherStore;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The in-process {@link TetherClient}: sends by appending to a {@link TetherStore} that the
 * instance's agent reads, and reads with the store's own asynchronous wait.
 *
 * <p>Design. {@code tether_read} returns egress only (frames flowing guest to host), but the store
 * filters by session and type, not direction, so a read without a type filter can be answered by
 * the session's own {@code user.message}. Those frames are dropped here; when a page held nothing
 * else, the read goes on from the page's {@code next_seq} with whatever is left of the wait, so
 * it neither returns early nor skips a frame. Each round advances the cursor, so the loop ends.
 * No thread is held while waiting. Thread-safe.
 */
public final class StoreTetherClient implements TetherClient {
  private final TetherStore store;
  private final Predicate<String> knownInstances;
  private final LongSupplier nanoTime;

  /**
   * @param store the frames of every instance
   * @param knownInstances which instance names exist; others are a {@link TetherException} coded {@code INSTANCE_NOT_FOUND}
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
      long deadline = nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(request.waitMs());
      CompletableFuture<ReadResult> answer = new CompletableFuture<>();
      AtomicReference<CompletableFuture<QueryResult>> pending = new AtomicReference<>();
      // Cancelling the answer (the MCP request was cancelled) removes the store's wait at once.
      answer.whenComplete((r, e) -> {
        CompletableFuture<QueryResult> page = pending.get();
        if (answer.isCancelled() && page != null) {
          page.cancel(false);
        }
      });
      round(instance, query, request.waitMs() > 0, deadline, answer, pending, false, 0);
      return answer;
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private void round(String instance, FrameQuery query, boolean waits, long deadline,
      CompletableFuture<ReadResult> answer, AtomicReference<CompletableFuture<QueryResult>> pending,
      boolean gapSoFar, long oldestSoFar) {
    long remaining = deadline - nanoTime.getAsLong();
    CompletableFuture<QueryResult> page = waits && remaining > 0
        ? store.waitForFrames(instance, query, Duration.ofNanos(remaining))
        : CompletableFuture.completedFuture(store.query(instance, query));
    pending.set(page);
    if (answer.isCancelled()) {
      page.cancel(false);
      return;
    }
    page.whenComplete((result, failure) -> {
      if (failure != null) {
        answer.completeExceptionally(failure);
        return;
      }
      // A gap seen by an earlier round is kept (with its oldest_seq): a later round must not hide it.
      boolean gap = gapSoFar || result.gap();
      long oldest = gapSoFar ? oldestSoFar : result.oldestSeq();
      List<Frame> egress = result.frames().stream().filter(f -> !f.isHostToGuest()).toList();
      boolean onlyOwnMessages = egress.isEmpty() && !result.frames().isEmpty();
      if (onlyOwnMessages && waits && deadline - nanoTime.getAsLong() > 0) {
        round(instance, query.withAfterSeq(result.nextSeq()), true, deadline, answer, pending, gap, oldest);
        return;
      }
      boolean timedOut = result.timedOut() || (onlyOwnMessages && waits);
      answer.complete(new ReadResult(egress, result.nextSeq(), timedOut, gap, gap ? oldest : 0));
    });
  }

  private void requireKnown(String instance) {
    Objects.requireNonNull(instance, "instance");
    if (instance.isEmpty() || !knownInstances.test(instance)) {
      throw TetherException.of(ErrorCode.INSTANCE_NOT_FOUND, "no instance named '" + instance + "'");
    }
  }

  /** For diagnostics. */
  @Override
  public String toString() {
    return "StoreTetherClient{" + store + "}";
  }
}
