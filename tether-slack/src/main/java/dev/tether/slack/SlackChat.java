package dev.tether.slack;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One Slack conversation as a tether session: a channel or DM ({@code C...}, {@code G...},
 * {@code D...}) and the thread in it, named by its parent message's timestamp. A thread is a
 * session: session channel {@value #CHANNEL}, session id {@code <channel>:<thread_ts>}. A message
 * outside a thread starts one (its own {@code ts} is the thread). Immutable.
 *
 * @param channel the conversation id
 * @param threadTs the thread's parent timestamp, such as {@code 1700000000.000100}
 */
public record SlackChat(String channel, String threadTs) {
  /** The tether session channel of every Slack conversation. */
  public static final String CHANNEL = "slack";
  private static final Pattern CHANNEL_ID = Pattern.compile("[CDG][A-Z0-9]{2,30}");
  private static final Pattern TS = Pattern.compile("[0-9]{1,12}\\.[0-9]{1,8}");

  public SlackChat {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(threadTs, "threadTs");
    if (!isChannelId(channel)) {
      throw new IllegalArgumentException("a Slack conversation id must look like C0123ABCD but was '" + channel + "'");
    }
    if (!TS.matcher(threadTs).matches()) {
      throw new IllegalArgumentException("a Slack thread timestamp must look like 1700000000.000100 but was '" + threadTs + "'");
    }
  }

  /** Whether {@code id} looks like a Slack conversation id (channel {@code C}, private {@code G}, DM {@code D}). */
  public static boolean isChannelId(String id) {
    return id != null && CHANNEL_ID.matcher(id).matches();
  }

  /** Whether this is a direct message. */
  public boolean isDirect() {
    return channel.startsWith("D");
  }

  /** The tether session id: {@code channel:thread_ts}. */
  public String sessionId() {
    return channel + ":" + threadTs;
  }

  /** The conversation a session id names, or empty when it is not {@code channel:thread_ts}. */
  public static Optional<SlackChat> parse(String sessionId) {
    if (sessionId == null) {
      return Optional.empty();
    }
    int colon = sessionId.indexOf(':');
    if (colon < 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(new SlackChat(sessionId.substring(0, colon), sessionId.substring(colon + 1)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  @Override
  public String toString() {
    return "slack:" + sessionId();
  }
}
