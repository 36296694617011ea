package dev.tether.telegram.internal;

import dev.tether.telegram.MediaMode;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * The lazy-media settings of a bridge, as its builder validated them. Immutable.
 *
 * @param privateChats the mode of private chats
 * @param groups the mode of groups, supergroups and channels
 * @param ttl how long a reference stays fetchable
 * @param maxRefs the most references kept; beyond it the registry evicts some
 * @param inlineImageMaxBytes images up to this size are answered inline, larger ones saved
 * @param clock the time source of the registry (tests pass one they advance)
 */
public record MediaSettings(
    MediaMode privateChats, MediaMode groups, Duration ttl, int maxRefs, long inlineImageMaxBytes, Clock clock) {
  public MediaSettings {
    Objects.requireNonNull(privateChats, "privateChats");
    Objects.requireNonNull(groups, "groups");
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(clock, "clock");
  }

  /** The mode of a chat of this Bot API type ({@code private}, {@code group}, {@code supergroup}, {@code channel}). */
  public MediaMode modeOf(String chatType) {
    return "private".equals(chatType) ? privateChats : groups;
  }

  /** Whether any chat is lazy, so that the registry and the request handler are needed. */
  public boolean anyLazy() {
    return privateChats == MediaMode.LAZY || groups == MediaMode.LAZY;
  }
}
