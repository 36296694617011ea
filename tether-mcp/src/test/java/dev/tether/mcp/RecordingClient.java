package dev.tether.mcp;

import dev.tether.api.Frame;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link TetherClient} that records what was sent and polled, and answers every poll with nothing. */
final class RecordingClient implements TetherClient {
  final List<Frame> sent = new CopyOnWriteArrayList<>();
  final List<PollRequest> polls = new CopyOnWriteArrayList<>();

  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    sent.add(frame);
    return CompletableFuture.completedFuture(
        new SendReceipt(frame.msgId().orElseThrow(), frame.session().orElseThrow().id(), sent.size()));
  }

  @Override
  public CompletableFuture<FramePage> poll(String instance, PollRequest request) {
    polls.add(request);
    return CompletableFuture.completedFuture(new FramePage(List.of(), request.afterSeq(), false, false, 0));
  }

  @Override
  public void close() {}
}
