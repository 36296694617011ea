package dev.tether.chat;

import dev.tether.api.Frame;
import dev.tether.api.TetherException;
import dev.tether.api.LogFields;
import dev.tether.client.SendReceipt;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Chat to tether: sends a chat message's {@code user.message} frame to the host until the host
 * takes it. An unreachable host, or one that refuses for now (a retryable code, such as a rate
 * limit the client gave up waiting out: {@code RateLimitedException} is an IOException), is retried
 * with capped backoff (the bridge confirms the chat platform's delivery only afterwards, so nothing
 * is lost, and the bridge slows down to the host's pace); a refusal of the message itself
 * ({@link TetherException} with a code that is not retryable: too large, bad image) is final and
 * returned, for a notice to the chat. Thread-safe.
 */
public final class HostForwarder {
  /** How long one send to the host may take before it is retried. */
  static final long HOST_TIMEOUT_SECONDS = 120;

  private final BridgeHost host;
  private final ChatRetrier retrier;
  private final ChatLog log;

  public HostForwarder(BridgeHost host, ChatRetrier retrier, ChatLog log) {
    this.host = Objects.requireNonNull(host, "host");
    this.retrier = Objects.requireNonNull(retrier, "retrier");
    this.log = Objects.requireNonNull(log, "log");
  }

  /**
   * Sends {@code frame}; returns empty once the host took it, or the host's refusal.
   *
   * @param from names the chat in log lines
   * @throws InterruptedIOException when the bridge stops first
   */
  public Optional<TetherException> forward(Frame frame, Object from) throws InterruptedIOException {
    return forward(frame, from, "a message");
  }

  /**
   * {@link #forward(Frame, Object)}, naming the message in the debug line
   * ({@code forwarded <what> from <chat> as <msg_id> seq <n>}).
   */
  public Optional<TetherException> forward(Frame frame, Object from, String what) throws InterruptedIOException {
    long backoff = retrier.initial().toMillis();
    while (true) {
      try {
        SendReceipt sent = retrier.waitingOn(host.client().send(host.instance(), frame)).get(HOST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (log.debugging()) {
          log.debug("forwarded " + what + " from " + from + " as " + sent.msgId() + " seq " + sent.ingressSeq(),
              LogFields.of(host.instance(), frame.toBuilder().msgId(sent.msgId()).build().withSeq(Math.max(0, sent.ingressSeq()))));
        }
        return Optional.empty();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("stopped while forwarding");
      } catch (ExecutionException | TimeoutException | RuntimeException e) {
        if (retrier.stopping()) {
          throw new InterruptedIOException("stopped while forwarding");
        }
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof CompletionException && cause.getCause() != null) {
          cause = cause.getCause();
        }
        if (cause instanceof TetherException refused && !refused.code().retryable()) {
          log.warn("the host refused the message from " + from + ": " + refused.code() + " " + refused.getMessage());
          return Optional.of(refused);
        }
        log.warn("the host did not take the message from " + from + " (" + log.describe(cause)
            + "); retrying in " + backoff + " ms");
        retrier.sleep(backoff);
        backoff = Math.min(retrier.max().toMillis(), backoff * 2);
      }
    }
  }
}
