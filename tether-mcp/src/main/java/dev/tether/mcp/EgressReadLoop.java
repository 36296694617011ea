package dev.tether.mcp;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The one implementation of {@code tether_read}'s read over any {@link TetherClient}, in-process
 * or over HTTP: egress (guest to host) of one session on the {@code host} channel, never the
 * session's own {@code user.*}/{@code control.*} frames, with the request's type, reply and limit
 * filters and its wait.
 *
 * <p>Design. A poll filters by session and type, not direction, so a page may hold only the
 * session's own messages. Those are dropped; when nothing else was on the page and the read may
 * wait, the loop polls again from the page's {@code next_seq} with what is left of the wait, so it
 * neither returns early nor skips a frame. Each round advances the cursor, so the loop ends. A
 * {@code gap} reported by any round is kept (with the first such round's {@code oldest_seq}): a
 * later round never hides that frames were evicted. Cancelling the answer cancels the poll in
 * flight (a store wait is removed, an HTTP request aborted). No thread is held while waiting: the
 * next round is started from the completion of the previous one, on whichever thread completed
 * it, and only starts a poll (it never blocks). Thread-safe: each read has its own state.
 */
final class EgressReadLoop {
  private EgressReadLoop() {}

  /** Reads {@code request}'s egress of {@code instance} through {@code client}. */
  static CompletableFuture<FramePage> read(TetherClient client, String instance, ReadRequest request) {
    return read(client, instance, request, System::nanoTime);
  }

  /** As {@link #read(TetherClient, String, ReadRequest)}, timing the wait with {@code nanoTime}. */
  static CompletableFuture<FramePage> read(TetherClient client, String instance, ReadRequest request, LongSupplier nanoTime) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(nanoTime, "nanoTime");
    CompletableFuture<FramePage> answer = new CompletableFuture<>();
    AtomicReference<CompletableFuture<FramePage>> pending = new AtomicReference<>();
    answer.whenComplete((r, t) -> {
      CompletableFuture<FramePage> page = pending.get();
      if (answer.isCancelled() && page != null) {
        page.cancel(false);
      }
    });
    long deadline = nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(request.waitMs());
    new Read(client, instance, request, nanoTime, deadline, answer, pending).round(request.afterSeq(), false, 0);
    return answer;
  }

  /** The poll of one round: the request's filters on the host channel, from {@code afterSeq}. */
  static PollRequest poll(ReadRequest request, long afterSeq, long waitMs) {
    return new PollRequest(SessionKey.HOST_CHANNEL, request.sessionId(), afterSeq, request.limit(), waitMs,
        Set.copyOf(request.types()), request.replyToMsgId().orElse(null));
  }

  /** Where the next round starts, and what earlier rounds saw of evicted frames. */
  private record Cursor(long afterSeq, boolean gapSoFar, long oldestSoFar) {}

  private record Read(TetherClient client, String instance, ReadRequest request, LongSupplier nanoTime, long deadline,
      CompletableFuture<FramePage> answer, AtomicReference<CompletableFuture<FramePage>> pending) {

    /**
     * Runs rounds from {@code cursor}. A page that is already complete (frames were there) is
     * handled in this loop, not in a callback, so a long run of the session's own messages read
     * a page at a time never deepens the stack; a page still waiting continues from its
     * completion.
     */
    void round(long afterSeq, boolean gapSoFar, long oldestSoFar) {
      Cursor cursor = new Cursor(afterSeq, gapSoFar, oldestSoFar);
      while (cursor != null) {
        CompletableFuture<FramePage> page;
        try {
          page = client.poll(instance, poll(request, cursor.afterSeq(), waitMs()));
        } catch (RuntimeException e) {
          answer.completeExceptionally(e);
          return;
        }
        pending.set(page);
        if (answer.isDone()) {
          page.cancel(false);
          return;
        }
        if (!page.isDone()) {
          Cursor from = cursor;
          page.whenComplete((result, failure) -> {
            Cursor next = handle(from, result, failure);
            if (next != null) {
              round(next.afterSeq(), next.gapSoFar(), next.oldestSoFar());
            }
          });
          return;
        }
        FramePage result = null;
        Throwable failure = null;
        try {
          result = page.join();
        } catch (CompletionException | CancellationException e) {
          failure = e;
        }
        cursor = handle(cursor, result, failure);
      }
    }

    /** What is left of the wait, rounded up: a wait of 0 would answer at once and end the read early. */
    private long waitMs() {
      if (request.waitMs() == 0) {
        return 0;
      }
      long leftNanos = Math.max(0, deadline - nanoTime.getAsLong());
      return Math.min(PollRequest.MAX_WAIT_MS, TimeUnit.NANOSECONDS.toMillis(leftNanos + 999_999));
    }

    /** Completes the answer from one page, or returns where the next round starts. */
    private Cursor handle(Cursor from, FramePage result, Throwable failure) {
      if (failure != null) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        answer.completeExceptionally(cause);
        return null;
      }
      boolean gap = from.gapSoFar() || result.gap();
      long oldest = from.gapSoFar() ? from.oldestSoFar() : result.oldestSeq();
      List<Frame> egress = result.frames().stream().filter(f -> !f.isHostToGuest()).toList();
      boolean onlyOwnMessages = egress.isEmpty() && !result.frames().isEmpty();
      boolean timeLeft = request.waitMs() > 0 && deadline - nanoTime.getAsLong() > 0;
      if (onlyOwnMessages && timeLeft && !answer.isDone()) {
        return new Cursor(result.nextSeq(), gap, oldest);
      }
      // A read that was to wait and returns nothing timed out, also when its deadline ran out
      // between rounds (the last round then polled with no wait, which never reports a timeout).
      boolean timedOut = result.timedOut() || (egress.isEmpty() && request.waitMs() > 0 && !timeLeft);
      answer.complete(new FramePage(egress, result.nextSeq(), timedOut, gap, gap ? oldest : 0));
      return null;
    }
  }
}
