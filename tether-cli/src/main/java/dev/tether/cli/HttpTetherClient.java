package dev.tether.cli;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.mcp.ReadRequest;
import dev.tether.mcp.ReadResult;
import dev.tether.mcp.SendReceipt;
import dev.tether.mcp.TetherClient;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The remote {@link TetherClient} for {@code tether mcp --host ...}: the MCP tools' sends and
 * reads go to a tether host over its HTTP API ({@code POST .../tether}, {@code GET .../tether/poll}).
 *
 * <p>Design: {@code tether_read} returns egress only, but the poll endpoint filters by session and
 * type, not direction, so a page may hold only the session's own {@code user.message}s. Those are
 * dropped; when nothing else was on the page the read polls again from its {@code next_seq} with
 * what is left of the wait, so it neither returns early nor skips a frame (the same rule as the
 * in-process {@code StoreTetherClient}). Cancelling a read aborts the HTTP request in flight.
 * A frame the host refuses completes the future with a {@link TetherException} carrying the host's
 * code; an unreachable host with an {@link java.io.IOException}. Thread-safe.
 */
final class HttpTetherClient implements TetherClient {
  private final TetherHttpClient http;
  private final LongSupplier nanoTime;

  HttpTetherClient(TetherHttpClient http) {
    this(http, System::nanoTime);
  }

  HttpTetherClient(TetherHttpClient http, LongSupplier nanoTime) {
    this.http = Objects.requireNonNull(http, "http");
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
  }

  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    return http.send(instance, frame)
        .thenApply(a -> new SendReceipt(a.msgId(), a.sessionId(), a.ingressSeq()))
        .exceptionallyCompose(t -> CompletableFuture.failedFuture(translate(t)));
  }

  @Override
  public CompletableFuture<ReadResult> read(String instance, ReadRequest request) {
    CompletableFuture<ReadResult> answer = new CompletableFuture<>();
    AtomicReference<CompletableFuture<?>> pending = new AtomicReference<>();
    answer.whenComplete((r, t) -> {
      CompletableFuture<?> p = pending.get();
      if (answer.isCancelled() && p != null) {
        p.cancel(false);
      }
    });
    long deadline = nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(request.waitMs());
    round(instance, request, request.afterSeq(), deadline, answer, pending);
    return answer;
  }

  private void round(String instance, ReadRequest request, long afterSeq, long deadline,
      CompletableFuture<ReadResult> answer, AtomicReference<CompletableFuture<?>> pending) {
    boolean waits = request.waitMs() > 0;
    long remainingMs = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - nanoTime.getAsLong()));
    CompletableFuture<TetherHttpClient.Page> page = http.poll(instance, SessionKey.HOST_CHANNEL, request.sessionId(),
        afterSeq, request.limit(), waits ? remainingMs : 0, request.types(), request.replyToMsgId().orElse(null));
    pending.set(page);
    if (answer.isCancelled()) {
      page.cancel(false);
      return;
    }
    page.whenComplete((result, failure) -> {
      if (failure != null) {
        answer.completeExceptionally(translate(failure));
        return;
      }
      List<Frame> egress = result.frames().stream().filter(f -> !f.isHostToGuest()).toList();
      boolean onlyOwnMessages = egress.isEmpty() && !result.frames().isEmpty();
      if (onlyOwnMessages && waits && deadline - nanoTime.getAsLong() > TimeUnit.MILLISECONDS.toNanos(1)) {
        round(instance, request, result.nextSeq(), deadline, answer, pending);
        return;
      }
      boolean timedOut = result.timedOut() || (onlyOwnMessages && waits);
      answer.complete(new ReadResult(egress, result.nextSeq(), timedOut, result.gap(), result.gap() ? result.oldestSeq() : 0));
    });
  }

  /** A host's refusal with a wire error code becomes that TetherException; the rest pass through. */
  static Throwable translate(Throwable t) {
    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    if (cause instanceof TetherHttpClient.HttpError e) {
      for (ErrorCode code : ErrorCode.values()) {
        if (code.name().equals(e.code)) {
          return e.imageIndex >= 0 ? TetherException.forImage(code, e.imageIndex, e.detail) : TetherException.of(code, e.detail);
        }
      }
    }
    return cause;
  }
}
