package dev.tether.store.jetstream.internal;

import io.nats.client.JetStream;
import io.nats.client.PublishOptions;
import io.nats.client.impl.Headers;
import io.nats.client.api.PublishAck;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes one frame to its stream and retries until the stream acknowledges it or the deadline
 * passes.
 *
 * <p>Every attempt carries the same {@code Nats-Msg-Id}, so when an earlier attempt was stored but
 * its acknowledgement lost (a leader change, a dropped connection), the stream answers the retry
 * with the original seq instead of storing the frame twice (within the stream's duplicate window,
 * which is longer than any deadline here). Attempts time out after {@code attemptTimeout}; between
 * attempts the retry thread waits a short, growing pause. Completes its futures on the jnats or
 * retry thread; the store hands them to callers through its executor. Thread-safe.
 */
public final class Appender {
  private final JetStream js;
  private final ScheduledExecutorService retries;
  private final Duration attemptTimeout;

  public Appender(JetStream js, ScheduledExecutorService retries, Duration attemptTimeout) {
    this.js = js;
    this.retries = retries;
    this.attemptTimeout = attemptTimeout;
  }

  /** The outcome: the seq, or the last failure when the deadline passed. */
  public CompletableFuture<Long> publish(String stream, String subject, byte[] body, String msgId, long deadlineNanos) {
    return publish(stream, subject, null, body, msgId, deadlineNanos);
  }

  /** As {@link #publish(String, String, byte[], String, long)}, with message headers (null for none). */
  public CompletableFuture<Long> publish(String stream, String subject, Headers headers, byte[] body, String msgId,
      long deadlineNanos) {
    CompletableFuture<Long> result = new CompletableFuture<>();
    PublishOptions options = PublishOptions.builder()
        .messageId(msgId).expectedStream(stream).streamTimeout(attemptTimeout).build();
    attempt(subject, headers, body, options, deadlineNanos, result, 0);
    return result;
  }

  private void attempt(String subject, Headers headers, byte[] body, PublishOptions options, long deadline,
      CompletableFuture<Long> result, int attempt) {
    CompletableFuture<PublishAck> ack;
    try {
      ack = js.publishAsync(subject, headers, body, options);
    } catch (RuntimeException e) {
      retryOrFail(subject, headers, body, options, deadline, result, attempt, e);
      return;
    }
    ack.orTimeout(attemptTimeout.toMillis() + 500, TimeUnit.MILLISECONDS).whenComplete((a, e) -> {
      if (e == null) {
        result.complete(a.getSeqno());
      } else {
        retryOrFail(subject, headers, body, options, deadline, result, attempt, e);
      }
    });
  }

  private void retryOrFail(String subject, Headers headers, byte[] body, PublishOptions options, long deadline,
      CompletableFuture<Long> result, int attempt, Throwable e) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    long pauseMillis = Math.min(500, 50L << Math.min(attempt, 4));
    boolean retryable = !(cause instanceof IllegalArgumentException);
    if (!retryable || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMillis) - deadline > 0) {
      result.completeExceptionally(cause instanceof TimeoutException
          ? new TimeoutException("no acknowledgement within " + attemptTimeout) : cause);
      return;
    }
    try {
      retries.schedule(() -> attempt(subject, headers, body, options, deadline, result, attempt + 1), pauseMillis, TimeUnit.MILLISECONDS);
    } catch (RuntimeException rejected) { // the store is closing
      result.completeExceptionally(cause);
    }
  }
}
