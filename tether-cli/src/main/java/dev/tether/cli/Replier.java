package dev.tether.cli;

import dev.tether.api.Image;
import dev.tether.api.Payload;
import dev.tether.api.Turn;
import java.io.IOException;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * How the demo agent answers one user message: the deterministic {@link DemoReplier} or a real
 * model call ({@link ModelReplier}). Implementations are thread-safe; one call runs per request.
 */
interface Replier {
  /** The complete answer: its text and the images it returns. */
  record Reply(String text, List<Image> images) {
    public Reply {
      images = List.copyOf(images);
    }
  }

  /**
   * Answers {@code message}, given the session's earlier turns (oldest first, without this
   * message). Streams pieces of the text to {@code deltas} as they are produced and stops early
   * (returning what it has) when {@code cancelled} turns true.
   */
  Reply reply(List<Turn> history, Payload.UserMessage message, Consumer<String> deltas, BooleanSupplier cancelled)
      throws IOException, InterruptedException;

  /** A short name for the logs, such as {@code demo} or {@code claude claude-sonnet-4-5}. */
  String describe();
}
