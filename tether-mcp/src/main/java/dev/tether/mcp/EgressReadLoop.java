package dev.tether.mcp;

import dev.tether.api.Frame;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The one egress-read loop behind every {@link TetherClient#read}: in-process
 * ({@link StoreTetherClient}) and over HTTP (the application's client) alike.
 *
 * <p>Design. {@code tether_read} returns egress only (guest to host), but stores and the poll
 * endpoint filter by session and type, not direction, so a page may hold only the session's own
 * {@code user.*}/{@code control.*} frames. Those are dropped; when nothing else was on the page and
 * the read may wait, the loop fetches again from the page's {@code next_seq} with what is left of
 * the wait, so it neither returns early nor skips a frame. Each round advances the cursor, so the
 * loop ends. A {@code gap} reported by any round is kept (with the first round's
 * {@code oldest_seq}): a later round never hides that frames were evicted. Cancelling the answer
 * cancels the page in flight. No thread is held while waiting. Thread-safe: each read has its own
 * state.
 */
public final class EgressReadLoop {
  /** Fetches one page of frames after {@code afterSeq}, unfiltered by direction. */
  @FunctionalInterface
  public interface Pages {
    /**
     * @param afterSeq the cursor
     * @param waitNanos how long the page may wait for a matching frame; 0 for an immediate answer
     * @return the page; a failure completes the read with that failure
     */
    CompletableFuture<ReadResult> fetch(long afterSeq, long waitNanos);
  }

  private EgressReadLoop() {}

  /**
   * {@code source} mapped to a page, with failures passed through {@code onFailure}; cancelling
   * the page cancels {@code source} (a store wait is removed, an HTTP poll aborted).
   */
  public static <T> CompletableFuture<ReadResult> page(CompletableFuture<T> source, Function<? super T, ReadResult> map,
      Function<Throwable, Throwable> onFailure) {
    CompletableFuture<ReadResult> page = new CompletableFuture<>();
    source.whenComplete((value, failure) -> {
      if (failure != null) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        page.completeExceptionally(onFailure.apply(cause));
        return;
      }
      try {
        page.complete(map.apply(value));
      } catch (RuntimeException e) {
        page.completeExceptionally(e);
      }
    });
    page.whenComplete((r, t) -> {
      if (page.isCancelled()) {
        source.cancel(false);
      }
    });
    return page;
  }

  /** Reads {@code request}'s egress through {@code pages}, timing the wait with {@code nanoTime}. */
  public static CompletableFuture<ReadResult> read(ReadRequest request, Pages pages, LongSupplier nanoTime) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(pages, "pages");
    Objects.requireNonNull(nanoTime, "nanoTime");
    CompletableFuture<ReadResult> answer = new CompletableFuture<>();
    AtomicReference<CompletableFuture<ReadResult>> pending = new AtomicReference<>();
    answer.whenComplete((r, t) -> {
      CompletableFuture<ReadResult> page = pending.get();
      if (answer.isCancelled() && page != null) {
        page.cancel(false);
      }
    });
    boolean waits = request.waitMs() > 0;
    long deadline = nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(request.waitMs());
    new Round(pages, nanoTime, waits, deadline, answer, pending).fetch(request.afterSeq(), false, 0);
    return answer;
  }

  private record Round(Pages pages, LongSupplier nanoTime, boolean waits, long deadline,
      CompletableFuture<ReadResult> answer, AtomicReference<CompletableFuture<ReadResult>> pending) {

    void fetch(long afterSeq, boolean gapSoFar, long oldestSoFar) {
      long remaining = waits ? Math.max(0, deadline - nanoTime.getAsLong()) : 0;
      CompletableFuture<ReadResult> page;
      try {
        page = pages.fetch(afterSeq, remaining);
      } catch (RuntimeException e) {
        answer.completeExceptionally(e);
        return;
      }
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
        boolean gap = gapSoFar || result.gap();
        long oldest = gapSoFar ? oldestSoFar : result.oldestSeq();
        List<Frame> egress = result.frames().stream().filter(f -> !f.isHostToGuest()).toList();
        boolean onlyOwnMessages = egress.isEmpty() && !result.frames().isEmpty();
        if (onlyOwnMessages && waits && deadline - nanoTime.getAsLong() > 0) {
          fetch(result.nextSeq(), gap, oldest);
          return;
        }
        boolean timedOut = result.timedOut() || (onlyOwnMessages && waits);
        answer.complete(new ReadResult(egress, result.nextSeq(), timedOut, gap, gap ? oldest : 0));
      });
    }
  }
}
