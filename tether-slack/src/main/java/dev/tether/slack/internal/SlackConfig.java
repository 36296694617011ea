package dev.tether.slack.internal;

import dev.tether.chat.BridgeHost;
import dev.tether.chat.ChatListener;
import dev.tether.client.AttachmentClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/**
 * The settings of a Slack bridge, as {@link dev.tether.slack.SlackBridge.Builder} validated them. Immutable.
 *
 * @param host the tether side
 * @param allowedChannels the conversation ids whose messages are forwarded and which may be answered
 * @param stateDir where cursors and media references are kept
 * @param lazyDirect whether media of direct messages is announced rather than downloaded
 * @param lazyChannels whether media of channels and private channels is announced
 * @param mediaTtl how long a reference stays fetchable
 * @param maxRefs the most references kept
 * @param inlineImageMaxBytes fetched images up to this size are answered inline
 * @param maxDownloadBytes the largest file downloaded, checked against the event's size before any request
 * @param liveEdits whether streamed text is shown by editing a draft ({@code chat.update})
 * @param editInterval the least time between two edits in one conversation
 * @param retryInitial the first backoff
 * @param retryMax the longest backoff
 * @param attachments where eager non-image files are stored as session attachments; null: a notice
 * @param clock the registry's clock
 * @param listener told what the bridge receives, forwards and sends (meters)
 */
public record SlackConfig(
    BridgeHost host,
    Set<String> allowedChannels,
    Path stateDir,
    boolean lazyDirect,
    boolean lazyChannels,
    Duration mediaTtl,
    int maxRefs,
    long inlineImageMaxBytes,
    long maxDownloadBytes,
    boolean liveEdits,
    Duration editInterval,
    Duration retryInitial,
    Duration retryMax,
    AttachmentClient attachments,
    Clock clock,
    ChatListener listener) {
  public SlackConfig {
    allowedChannels = Set.copyOf(allowedChannels);
  }

  public boolean allowed(String channel) {
    return allowedChannels.contains(channel);
  }
}
