package dev.tether.mcp;

import dev.tether.api.Frame;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link TetherClient} that records what was sent and answers every read with nothing. */
final class RecordingClient implements TetherClient {
  final List<Frame> sent = new CopyOnWriteArrayList<>();
  final List<ReadRequest> reads = new CopyOnWriteArrayList<>();

  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    sent.add(frame);
    return CompletableFuture.completedFuture(
        new SendReceipt(frame.msgId().orElseThrow(), frame.session().orElseThrow().id(), sent.size()));
  }

  @Override
  public CompletableFuture<ReadResult> read(String instance, ReadRequest request) {
    reads.add(request);
    return CompletableFuture.completedFuture(new ReadResult(List.of(), request.afterSeq(), false, false, 0));
  }
}
