package dev.tether.cli;

import dev.tether.api.Frame;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link TetherClient} of a remote host, over its HTTP API: what the bridge commands
 * ({@code tether coven}, {@code tether telegram}) use to reach {@code tether serve}. A refusal
 * with a wire error code completes the future with that {@link dev.tether.api.TetherException};
 * an unreachable host with an {@link java.io.IOException}. Thread-safe; closing it closes the
 * HTTP client.
 */
final class RemoteTetherClient implements TetherClient {
  private final TetherHttpClient http;

  RemoteTetherClient(TetherHttpClient http) {
    this.http = Objects.requireNonNull(http, "http");
  }

  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    return http.send(instance, frame)
        .thenApply(a -> new SendReceipt(a.msgId(), a.sessionId(), a.ingressSeq()))
        .exceptionallyCompose(t -> CompletableFuture.failedFuture(HttpTetherClient.translate(t, instance)));
  }

  @Override
  public CompletableFuture<FramePage> poll(String instance, PollRequest r) {
    return http.poll(instance, r.channel() == null ? "*" : r.channel(), r.sessionId() == null ? "*" : r.sessionId(),
            r.afterSeq(), r.limit(), r.waitMs(), r.types(), r.replyToMsgId())
        .thenApply(p -> new FramePage(p.frames(), p.nextSeq(), p.timedOut(), p.gap(), p.oldestSeq()))
        .exceptionallyCompose(t -> CompletableFuture.failedFuture(HttpTetherClient.translate(t, instance)));
  }

  @Override
  public void close() {
    http.close();
  }
}
