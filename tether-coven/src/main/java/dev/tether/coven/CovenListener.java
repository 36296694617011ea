package dev.tether.coven;

import dev.tether.api.Frame;
import java.time.Duration;

/**
 * Progress of a {@link CovenAgent}, for logs and tests. Every method has an empty default.
 *
 * <p>Methods are called on the agent's executor or its gRPC threads, one at a time per event,
 * and must return quickly without blocking; an exception they throw is ignored.
 */
public interface CovenListener {
  /** A stream to the gateway is being opened ({@code attempt} counts from 1 since the last welcome). */
  default void onConnecting(String target, int attempt) {}

  /** The gateway accepted the registration. */
  default void onRegistered(CovenWelcome welcome) {}

  /** The stream ended and a new one will be opened after {@code retryIn}. */
  default void onDisconnected(String reason, Duration retryIn) {}

  /** A {@code SendMessage} arrived and is being bridged. */
  default void onRequest(String requestId, String threadId, int attachments) {}

  /**
   * The request {@code requestId} was translated and is being posted to the tether host as
   * {@code frame} (a {@code user.message}): its {@code msg_id} is the one the host's and the
   * agent's logs name, and the answer's frames carry.
   */
  default void onForwarded(String requestId, Frame frame) {}

  /** A request ended; {@code outcome} is {@code done}, {@code error: ...} or {@code cancelled}. */
  default void onRequestEnded(String requestId, String outcome) {}

  /** Something went wrong that the agent recovers from, in one sentence. */
  default void onWarning(String message) {}

  /** The agent stopped for good; told before {@link CovenAgent#termination()} completes. */
  default void onTerminated(CovenTermination termination) {}
}
