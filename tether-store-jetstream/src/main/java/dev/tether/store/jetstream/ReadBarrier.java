package dev.tether.store.jetstream;

import dev.tether.api.Frame;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.jetstream.internal.InstanceMirror;
import dev.tether.store.jetstream.internal.LastSeqRequest;
import dev.tether.store.jetstream.internal.Names;
import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read barrier: before a query answers, a subscription starts or a wait answers, the local
 * view is shown to hold every frame acknowledged before the call began (on this host or any
 * other), or the read fails with {@link StoreUnavailableException}. See "The read guarantee" on
 * {@link JetStreamTetherStore}.
 *
 * <p>Concurrency: a query or subscription runs the barrier on the caller's thread
 * ({@link #catchUp}, blocking at most the barrier and catch-up timeouts). A wait holds no thread:
 * its stream request and its index wait run side by side, the common case is decided on the NATS
 * thread, and only a view stuck after a failover is caught up on one of this barrier's catch-up
 * threads. The wait's answer completes through the caller's executor. The connection's reconnect
 * count (the epoch) is kept here: a view may answer without JetStream only if the connection has
 * not reconnected since the view was last caught up.
 */
final class ReadBarrier {
  /** The store's logger, by name (a part does not reach back to the store): its setting covers the barrier. */
  private static final System.Logger LOG = System.getLogger("dev.tether.store.jetstream.JetStreamTetherStore");
  /** The JetStream API subject prefix of the connection's account ({@code $JS.API.}). */
  private static final String API_PREFIX = "$JS.API.";

  private final Connection nc;
  private final JetStreamManagement jsm;
  private final Names names;
  private final Duration readBarrierTimeout;
  private final Duration catchUpTimeout;
  private final CallerFutures callers;
  private final Lifecycle lifecycle;
  /** How often the connection reconnected (to this or another server); views note what they saw. */
  private final AtomicLong reconnects = new AtomicLong();
  private final ConnectionListener reconnectCounter = (conn, event) -> {
    if (event == ConnectionListener.Events.RECONNECTED) {
      reconnects.incrementAndGet();
    }
  };
  /** Runs the blocking catch-up of waits whose view did not show itself caught up at once (failovers). */
  private final ThreadPoolExecutor catchUps;

  ReadBarrier(Connection nc, Names names, Duration readBarrierTimeout, Duration catchUpTimeout, CallerFutures callers,
      Lifecycle lifecycle) throws IOException {
    this.nc = nc;
    this.jsm = nc.jetStreamManagement(JetStreamOptions.builder().requestTimeout(readBarrierTimeout).build());
    this.names = names;
    this.readBarrierTimeout = readBarrierTimeout;
    this.catchUpTimeout = catchUpTimeout;
    this.callers = callers;
    this.lifecycle = lifecycle;
    this.catchUps = new ThreadPoolExecutor(16, 16, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, "tether-jetstream-catchup");
      t.setDaemon(true);
      return t;
    });
    catchUps.allowCoreThreadTimeOut(true);
    nc.addConnectionListener(reconnectCounter);
  }

  /** The connection's reconnect count now. */
  long epoch() {
    return reconnects.get();
  }

  /**
   * Lets the view {@code m} reach everything acknowledged before this call, or fails. The target
   * is the stream's last sequence (one request to the stream, at most the barrier timeout) and at
   * least the newest seq this process appended.
   *
   * <ul>
   *   <li>When the view reaches it within the barrier timeout, the read goes on.
   *   <li>When it does not (the consumer's server died or the connection moved, and jnats has not
   *       noticed yet), the consumer is replaced by one that starts after the view's newest seq,
   *       and the view gets the catch-up timeout more; then the read goes on or fails with
   *       {@link StoreUnavailableException}.
   *   <li>When the stream cannot answer, the read is served from the local view only if it holds
   *       every frame this process appended and the connection has not reconnected since the view
   *       was last caught up; otherwise {@link StoreUnavailableException}.
   * </ul>
   *
   * @throws StoreUnavailableException when the view cannot be shown to be caught up
   */
  void catchUp(InstanceMirror m, String instance) {
    m.touch();
    long epoch = reconnects.get();
    long target;
    try {
      target = Math.max(m.ackedSeq(), jsm.getStreamInfo(names.stream(instance)).getStreamState().getLastSequence());
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      if (m.index().lastSeq() >= m.ackedSeq() && m.verifiedEpoch() >= epoch) {
        LOG.log(System.Logger.Level.DEBUG, "instance {0}: answering from the local view: {1}", instance, e.getMessage());
        return;
      }
      throw new StoreUnavailableException("instance " + instance + ": this host cannot confirm it has every"
          + " acknowledged frame (its NATS connection moved or JetStream does not answer: " + e.getMessage()
          + "); retry in a moment", e);
    }
    try {
      if (m.awaitSeq(target, readBarrierTimeout)) {
        m.verified(epoch);
        return;
      }
      // Stuck: new consumers until it moves. A consumer may be placed on a peer that is down
      // (the meta layer still lists it), so one that brings nothing within a barrier timeout is
      // replaced again rather than waited on.
      long deadline = System.nanoTime() + catchUpTimeout.toNanos();
      long seen = m.index().lastSeq();
      while (true) {
        long now = m.index().lastSeq();
        if (now == seen) {
          try {
            m.resubscribe(readBarrierTimeout); // concurrent readers of a stuck view replace it once
          } catch (Exception e) {
            LOG.log(System.Logger.Level.DEBUG, "instance {0}: a new consumer failed: {1}", instance, e.getMessage());
          }
        }
        seen = now;
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        if (m.awaitSeq(target, Duration.ofNanos(Math.min(left, readBarrierTimeout.toNanos())))) {
          m.verified(epoch);
          return;
        }
      }
      throw new StoreUnavailableException("instance " + instance + ": this host's view is at seq " + m.index().lastSeq()
          + " but the stream is at " + target + " (not caught up within " + (readBarrierTimeout.plus(catchUpTimeout).toMillis())
          + " ms); retry in a moment", null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException("interrupted while catching up instance " + instance, e);
    }
  }

  /**
   * A wait of {@code nanos} on the view {@code m} whose answer passed the barrier: the stream's
   * last seq is asked for while the wait is registered, and the answer waits for both, so no
   * thread is held and an append racing the wait costs no extra round trip. Null when the view's
   * index ended meanwhile (the instance was removed): wait on the instance's next view.
   */
  CompletableFuture<QueryResult> waitForFrames(InstanceMirror m, String instance, FrameQuery query, long nanos) {
    m.touch();
    long epoch = reconnects.get();
    CompletableFuture<Long> streamLast = LastSeqRequest.send(nc, API_PREFIX, names.stream(instance), readBarrierTimeout);
    CompletableFuture<QueryResult> inner = m.index().waitForFrames(query, nanos);
    if (inner == null) {
      return null;
    }
    return afterBarrier(m, instance, query, epoch, streamLast, inner);
  }

  /**
   * The newest seq of {@code instance}: the stream's, or the view's when it is newer or the stream
   * does not answer.
   */
  long lastSeq(InstanceMirror m, String instance) {
    try {
      return Math.max(m.lastSeq(), jsm.getStreamInfo(names.stream(instance)).getStreamState().getLastSequence());
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      return m.lastSeq();
    }
  }

  /** Why JetStream is not ready: it does not answer an account request within the barrier timeout; null when it does. */
  String unanswered() {
    try {
      jsm.getAccountStatistics();
      return null;
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      return "JetStream does not answer: " + e.getMessage();
    }
  }

  /** Adds the gap a local view that started on an already evicted stream cannot see itself. */
  static QueryResult withFloorGap(InstanceMirror m, FrameQuery q, QueryResult r) {
    if (r.gap() || q.afterSeq() >= m.floor()) {
      return r;
    }
    FrameQuery scope = FrameQuery.builder().channel(q.channel()).sessionId(q.sessionId()).limit(1).build();
    List<Frame> oldest = m.index().query(scope).frames();
    return new QueryResult(r.frames(), r.nextSeq(), r.timedOut(), true, oldest.isEmpty() ? 0 : oldest.get(0).seq());
  }

  /** Ends the catch-up threads and stops counting reconnects; for the store's close. */
  void close() {
    catchUps.shutdownNow();
    try {
      nc.removeConnectionListener(reconnectCounter);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "removing the reconnect listener: {0}", e.getMessage());
    }
  }

  /**
   * {@code inner}'s answer once the view is shown to hold every frame acknowledged before the
   * wait began (see {@link #catchUp}). The common case is decided on the NATS thread: the stream's
   * last seq arrived and the view holds it (or gets it within the barrier timeout). Anything else
   * (no answer, a view stuck after a failover) runs the blocking {@link #catchUp} on a catch-up
   * thread, and fails the wait with {@link StoreUnavailableException} if it cannot. An answer with
   * frames is read again from the view after the barrier, so it holds every frame up to it.
   * Cancelling the returned future ends the wait.
   */
  private CompletableFuture<QueryResult> afterBarrier(InstanceMirror m, String instance, FrameQuery query, long epoch,
      CompletableFuture<Long> streamLast, CompletableFuture<QueryResult> inner) {
    CompletableFuture<Long> caughtUpTo = streamLast
        .thenCompose(last -> {
          long target = Math.max(last, m.ackedSeq());
          return m.seqReached(target).copy().orTimeout(readBarrierTimeout.toMillis(), TimeUnit.MILLISECONDS)
              .thenApply(ignored -> target);
        })
        .whenComplete((target, e) -> {
          if (e == null) {
            m.verified(epoch);
          }
        })
        .exceptionallyCompose(e -> CompletableFuture.supplyAsync(() -> {
          catchUp(m, instance);
          return Long.MAX_VALUE; // caught up to some later seq: read the answer again
        }, catchUps));
    CompletableFuture<QueryResult> answer = new CompletableFuture<>();
    caughtUpTo.whenComplete((target, barrierFailure) -> {
      if (barrierFailure != null) {
        inner.cancel(false); // end the index wait
        Throwable cause = CallerFutures.unwrap(barrierFailure);
        callers.complete(() -> CallerFutures.fail(answer,
            lifecycle.closed() ? new CancellationException("the store was closed") : cause));
        return;
      }
      // Usually the wait is still pending here and completes later on the executor (the index
      // completes it there): then the answer completes on that thread, without a second hop.
      Thread registering = Thread.currentThread();
      inner.whenComplete((r, e) -> {
        Runnable complete = () -> {
          if (e != null) {
            CallerFutures.fail(answer, CallerFutures.unwrap(e));
          } else if (m.stopped() || coversBarrier(r, target)) {
            answer.complete(r);
          } else {
            QueryResult again = withFloorGap(m, query, m.index().query(query));
            answer.complete(again.frames().isEmpty() ? r : again);
          }
        };
        if (Thread.currentThread() == registering) {
          callers.complete(complete); // already done: this is the NATS or catch-up thread
        } else {
          complete.run();
        }
      });
    });
    answer.whenComplete((r, e) -> {
      if (answer.isCancelled()) {
        inner.cancel(false); // the caller cancelled: end the index wait
      }
    });
    return answer;
  }

  /**
   * Whether a wait's answer already holds every matching frame up to the barrier's {@code target}:
   * it reaches the target. Otherwise (it woke or timed out before the view held the target) the
   * answer is read again from the view, which holds it now.
   */
  private static boolean coversBarrier(QueryResult r, long target) {
    return !r.frames().isEmpty() && r.frames().get(r.frames().size() - 1).seq() >= target;
  }
}
