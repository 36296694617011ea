package dev.tether.coven.internal;

import dev.tether.client.AttachmentClient;
import dev.tether.client.TetherClient;
import dev.tether.coven.CovenListener;
import dev.tether.images.FrameValidator;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What every stream and request of one agent share: the tether side, the threads, the limits and
 * the timing. Immutable.
 *
 * @param client the tether host the agent lives behind
 * @param instance the tether instance
 * @param executor runs every callback and translation; never blocked by this module
 * @param timer only schedules: heartbeats, timeouts, reconnect delays; hands work to {@code executor}
 * @param validator the limits attachments and answers are checked against
 * @param turnTimeout how long one request may take before it ends in {@code error}
 * @param pollWaitMs the long-poll wait for the agent's frames
 * @param cancelDrain after a cancel, how long to wait for the agent to stop before the next request
 * @param heartbeat the heartbeat interval
 * @param listener progress reports (one line each in the CLI)
 * @param attachments where attachments that are not images are stored as session attachments;
 *     null: they are only named in the text
 * @param approvalTimeout how long an agent's approval request waits for the gateway's answer
 *     before it ends in {@code TOOL_STATE_TIMEOUT} and the agent is told {@code deny}
 * @param packToolTimeout how long a pack-tool request waits for the gateway's result before it
 *     ends in {@code TOOL_STATE_TIMEOUT} and the agent gets an error result
 */
public record Bridge(
    TetherClient client,
    String instance,
    Executor executor,
    ScheduledExecutorService timer,
    FrameValidator validator,
    Duration turnTimeout,
    long pollWaitMs,
    Duration cancelDrain,
    Duration heartbeat,
    CovenListener listener,
    AttachmentClient attachments,
    Duration approvalTimeout,
    Duration packToolTimeout) {
  public Bridge {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(timer, "timer");
    Objects.requireNonNull(validator, "validator");
    Objects.requireNonNull(turnTimeout, "turnTimeout");
    Objects.requireNonNull(cancelDrain, "cancelDrain");
    Objects.requireNonNull(heartbeat, "heartbeat");
    Objects.requireNonNull(listener, "listener");
    Objects.requireNonNull(approvalTimeout, "approvalTimeout");
    Objects.requireNonNull(packToolTimeout, "packToolTimeout");
  }
}
