package dev.tether.cli;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.mcp.EgressReadLoop;
import dev.tether.mcp.HostRefusedException;
import dev.tether.mcp.ReadRequest;
import dev.tether.mcp.UnknownInstanceException;
import dev.tether.mcp.ReadResult;
import dev.tether.mcp.SendReceipt;
import dev.tether.mcp.TetherClient;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The remote {@link TetherClient} for {@code tether mcp --host ...}: the MCP tools' sends and
 * reads go to a tether host over its HTTP API ({@code POST .../tether}, {@code GET .../tether/poll}).
 *
 * <p>Design: reads go through the shared {@link EgressReadLoop} (the same loop as the in-process
 * {@code StoreTetherClient}); each round is one poll. Cancelling a read aborts the HTTP request
 * in flight.
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
        .exceptionallyCompose(t -> CompletableFuture.failedFuture(translate(t, instance)));
  }

  @Override
  public CompletableFuture<ReadResult> read(String instance, ReadRequest request) {
    boolean waits = request.waitMs() > 0;
    return EgressReadLoop.read(request, (afterSeq, waitNanos) -> EgressReadLoop.page(
        http.poll(instance, SessionKey.HOST_CHANNEL, request.sessionId(), afterSeq, request.limit(),
            waits ? TimeUnit.NANOSECONDS.toMillis(waitNanos) : 0, request.types(), request.replyToMsgId().orElse(null)),
        p -> new ReadResult(p.frames(), p.nextSeq(), p.timedOut(), p.gap(), p.gap() ? p.oldestSeq() : 0),
        t -> translate(t, instance)), nanoTime);
  }

  /**
   * A host's refusal with a wire error code becomes that TetherException; an unknown instance
   * an {@link UnknownInstanceException}; any other 4xx a {@link HostRefusedException} (the request
   * itself is wrong, so retrying cannot help); 5xx and transport failures pass through as
   * {@link java.io.IOException}s (the host may recover).
   */
  static Throwable translate(Throwable t, String instance) {
    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    if (cause instanceof TetherHttpClient.HttpError e) {
      if (ErrorCode.INSTANCE_NOT_FOUND.name().equals(e.code)) {
        return new UnknownInstanceException(instance); // the MCP tools' own error for it
      }
      for (ErrorCode code : ErrorCode.values()) {
        if (code.name().equals(e.code)) {
          return e.imageIndex >= 0 ? TetherException.forImage(code, e.imageIndex, e.detail) : TetherException.of(code, e.detail);
        }
      }
      if (e.status / 100 == 4 && e.status != 408 && e.status != 429) {
        String said = e.status + " " + e.code + (e.detail == null || e.detail.isEmpty() ? "" : ": " + e.detail);
        return refused(e.status, e.code, said, instance);
      }
    }
    if (cause instanceof org.eclipse.jetty.client.HttpResponseException e && e.getResponse() != null
        && e.getResponse().getStatus() / 100 == 4) {
      // Jetty refuses some answers itself, such as a 401 without a WWW-Authenticate header.
      int status = e.getResponse().getStatus();
      return refused(status, "HTTP_" + status, status + ": " + e.getMessage(), instance);
    }
    return cause;
  }

  private static Throwable refused(int status, String code, String said, String instance) {
    if ("INSTANCE_NOT_FOUND".equals(code)) {
      return new UnknownInstanceException(instance);
    }
    HostRefusedException.Reason reason = switch (status) {
      case 401, 403 -> HostRefusedException.Reason.UNAUTHORIZED;
      case 404 -> HostRefusedException.Reason.NOT_FOUND;
      default -> HostRefusedException.Reason.INVALID_ARGUMENTS;
    };
    String advice = reason == HostRefusedException.Reason.UNAUTHORIZED
        ? "; check the token file given to 'tether mcp --token-file'" : "";
    return new HostRefusedException(reason, said + advice);
  }
}
