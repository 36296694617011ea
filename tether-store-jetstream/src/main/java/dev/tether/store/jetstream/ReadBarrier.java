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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
  /** How long a read waits for a view whose consumer looked stuck before it reads from the stream. */
  private static final Duration SUSPECT_WAIT = Duration.ofMillis(50);
  /** The most messages a read fetches from the stream's leader to catch a stuck view up. */
  private static final int MAX_FILL = 2000;
  /** How many consumers a stuck view tries (every half second or so) before the next read tries again. */
  private static final int HEAL_ATTEMPTS = 20;

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
  /** Sends the stream request of waits still pending after the barrier timeout. */
  private final ScheduledThreadPoolExecutor askLater;
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
    this.askLater = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "tether-jetstream-barrier");
      t.setDaemon(true);
      return t;
    });
    askLater.setRemoveOnCancelPolicy(true);
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
      // A view whose consumer looked stuck at the last read does not wait for it again.
      if (m.awaitSeq(target, m.suspect() ? SUSPECT_WAIT : readBarrierTimeout)) {
        m.verified(epoch);
        return;
      }
      // Stuck: the consumer's server may have died, or the connection moved before jnats noticed.
      // Read what is missing from the stream's leader (up whenever appends are), and make a new
      // consumer beside the read, since one placed on a dead peer never answers.
      m.markSuspect();
      heal(m, instance);
      try {
        if (m.fill(jsm, target, MAX_FILL)) {
          m.verified(epoch);
          return;
        }
      } catch (IOException | JetStreamApiException | RuntimeException e) {
        LOG.log(System.Logger.Level.DEBUG, "instance {0}: reading from the stream failed: {1}", instance, e.getMessage());
      }
      // The leader did not answer either (or the view lacks more than a fill reads): wait for
      // new consumers until the catch-up timeout.
      long deadline = System.nanoTime() + catchUpTimeout.toNanos();
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        if (m.awaitSeq(target, Duration.ofNanos(Math.min(left, readBarrierTimeout.toNanos())))) {
          m.verified(epoch);
          return;
        }
        heal(m, instance);
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
   * A wait of {@code nanos} on the view {@code m}, held to the barrier as {@link #afterBarrier}
   * says: no thread is held, and a wait that wakes with frames within the barrier timeout makes
   * no request at all. Null when the view's index ended meanwhile (the instance was removed):
   * wait on the instance's next view.
   */
  CompletableFuture<QueryResult> waitForFrames(InstanceMirror m, String instance, FrameQuery query, long nanos) {
    m.touch();
    heal(m, instance); // a view filled without a consumer gets one, so that appends elsewhere wake the wait
    long epoch = reconnects.get();
    CompletableFuture<QueryResult> inner = m.index().waitForFrames(query, nanos);
    if (inner == null) {
      return null;
    }
    // The stream is asked only when the wait is still pending after the barrier timeout (a view
    // whose consumer stopped is caught up then) or when it ends empty: a wake costs no round trip.
    CompletableFuture<Long> streamLast = new CompletableFuture<>();
    AtomicBoolean asked = new AtomicBoolean();
    String stream = names.stream(instance);
    Runnable ask = () -> {
      if (asked.compareAndSet(false, true)) {
        LastSeqRequest.send(nc, API_PREFIX, stream, readBarrierTimeout).whenComplete((last, e) -> {
          if (e != null) {
            streamLast.completeExceptionally(e);
          } else {
            streamLast.complete(last);
          }
        });
      }
    };
    try {
      ScheduledFuture<?> later = askLater.schedule(ask, readBarrierTimeout.toNanos(), TimeUnit.NANOSECONDS);
      inner.whenComplete((r, e) -> later.cancel(false));
    } catch (RejectedExecutionException closing) {
      ask.run();
    }
    return afterBarrier(m, instance, query, epoch, streamLast, ask, inner);
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

  /**
   * Makes the suspect view {@code m} a new consumer on a catch-up thread, retrying every barrier
   * timeout while the view stays suspect (a consumer create placed on a dead peer times out),
   * for at most {@link #HEAL_ATTEMPTS} attempts; concurrent calls for one view make one consumer.
   */
  void heal(InstanceMirror m, String instance) {
    if (!m.suspect() || m.stopped() || !m.startHealing()) {
      return;
    }
    try {
      catchUps.execute(() -> {
        try {
          for (int attempt = 0; attempt < HEAL_ATTEMPTS && m.suspect() && !m.stopped() && !lifecycle.closed(); attempt++) {
            try {
              m.resubscribe(Duration.ZERO);
            } catch (Exception e) {
              LOG.log(System.Logger.Level.DEBUG, "instance {0}: a new consumer failed: {1}", instance, e.getMessage());
              Thread.sleep(Math.min(500, readBarrierTimeout.toMillis()));
            }
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          m.endHealing();
        }
      });
    } catch (RejectedExecutionException e) {
      m.endHealing(); // closing
    }
  }

  /** The JetStream management context of the barrier (its requests time out after the barrier timeout). */
  JetStreamManagement management() {
    return jsm;
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
    askLater.shutdownNow();
    try {
      nc.removeConnectionListener(reconnectCounter);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "removing the reconnect listener: {0}", e.getMessage());
    }
  }

  /**
   * {@code inner}'s answer, held to the barrier where it matters. A wait that wakes with frames
   * answers at once, without waiting for the stream's answer: its view holds every seq up to the
   * answer's {@code nextSeq} (the consumer delivers in stream order), so the answer is complete up
   * to there and a poll from its {@code nextSeq} misses nothing; wake latency is then the append
   * and the delivery, no round trip. A wait that ends empty (its timeout) answers only once the
   * view is shown to hold every frame acknowledged before the wait began (see {@link #catchUp}),
   * and is read again then. The stream's last seq is asked for when the wait is still pending
   * after the barrier timeout, or when it ends empty before; a view that does not reach it (stuck
   * after a failover) is caught up on a catch-up thread, which is what wakes such a wait; a barrier that fails (the
   * view cannot be shown complete) fails a wait still pending with {@link StoreUnavailableException}.
   * Cancelling the returned future ends the wait.
   */
  private CompletableFuture<QueryResult> afterBarrier(InstanceMirror m, String instance, FrameQuery query, long epoch,
      CompletableFuture<Long> streamLast, Runnable ask, CompletableFuture<QueryResult> inner) {
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
    // A wake with frames answers at once: the view holds every seq up to the answer's nextSeq (its
    // consumer delivers in stream order), so the answer is complete up to there and the next poll
    // continues after it; only an empty answer (a timeout) waits for the barrier, which may show
    // frames the view was missing.
    Thread registering = Thread.currentThread();
    inner.whenComplete((r, e) -> {
      Runnable complete = () -> {
        if (e != null) {
          CallerFutures.fail(answer, CallerFutures.unwrap(e));
        } else if (!r.frames().isEmpty() || m.stopped()) {
          answer.complete(r);
        } else {
          ask.run(); // an empty answer waits for the barrier: ask now if the wait ended before its timer
          boolean barrierDone = caughtUpTo.isDone(); // then the callback below runs on this (executor) thread
          caughtUpTo.whenComplete((target, barrierFailure) -> {
            if (barrierFailure != null) {
              return; // the answer failed with it (below)
            }
            Runnable again = () -> {
              QueryResult later = withFloorGap(m, query, m.index().query(query));
              answer.complete(later.frames().isEmpty() ? r : later);
            };
            if (barrierDone) {
              again.run();
            } else {
              callers.complete(again); // on the NATS or catch-up thread that ended the barrier
            }
          });
        }
      };
      if (Thread.currentThread() == registering) {
        callers.complete(complete); // already done: this is the caller's thread
      } else {
        complete.run();
      }
    });
    caughtUpTo.whenComplete((target, barrierFailure) -> {
      if (barrierFailure != null && !answer.isDone()) {
        inner.cancel(false); // end the index wait
        Throwable cause = CallerFutures.unwrap(barrierFailure);
        callers.complete(() -> CallerFutures.fail(answer,
            lifecycle.closed() ? new CancellationException("the store was closed") : cause));
      }
    });
    answer.whenComplete((r, e) -> {
      if (answer.isCancelled()) {
        inner.cancel(false); // the caller cancelled: end the index wait
      }
    });
    return answer;
  }
}
