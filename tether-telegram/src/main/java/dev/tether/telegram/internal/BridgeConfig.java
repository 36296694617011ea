package dev.tether.telegram.internal;

import dev.tether.api.Limits;
import dev.tether.chat.BridgeHost;
import dev.tether.client.AttachmentClient;
import dev.tether.client.TetherClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * The settings the loops share, as {@link dev.tether.telegram.TelegramBridge.Builder} validated
 * them. Immutable.
 *
 * @param client the tether host
 * @param instance the instance the bot talks to
 * @param allowedChats the chat ids whose messages are forwarded and which may be answered
 * @param refuseOthers whether a chat not allowed gets one refusal message
 * @param limits the image limits every producer applies
 * @param stateDir where the update offset and the egress cursor are kept
 * @param pollWait how long one {@code getUpdates} and one host poll wait
 * @param albumWindow how long the bridge waits for more items of an album after the last one
 * @param liveEdits whether {@code assistant.delta} is shown by editing a draft message
 * @param editInterval the least time between two edits in one chat
 * @param typingInterval how often the typing action is repeated while the agent works
 * @param retryInitial the first backoff after a network or 5xx failure
 * @param retryMax the longest backoff
 * @param attachments where documents that are not images are stored as session attachments; null:
 *     they are refused with a notice
 */
public record BridgeConfig(
    TetherClient client,
    String instance,
    Set<Long> allowedChats,
    boolean refuseOthers,
    Limits limits,
    Path stateDir,
    Duration pollWait,
    Duration albumWindow,
    boolean liveEdits,
    Duration editInterval,
    Duration typingInterval,
    Duration retryInitial,
    Duration retryMax,
    AttachmentClient attachments) {
  public BridgeConfig {
    allowedChats = Set.copyOf(allowedChats);
  }

  public boolean allowed(long chatId) {
    return allowedChats.contains(chatId);
  }

  /** The tether side, as the core's loops take it. */
  public BridgeHost host() {
    return new BridgeHost(client, instance, limits, pollWait);
  }
}
