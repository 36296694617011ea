package dev.tether.api;

import java.util.Objects;

/**
 * A conversation's identity: the channel it arrives on and the id the channel gives it.
 *
 * <p>{@code host:default} and {@code telegram:default} are different sessions. Code that needs a
 * session key uses this value, never a joined string that two different pairs could share.
 *
 * @param channel for example {@code host} or {@code telegram}
 * @param id the caller-chosen id within the channel, for example {@code default}
 */
public record SessionKey(String channel, String id) {
  /** The channel host agents (MCP servers, the CLI) use. */
  public static final String HOST_CHANNEL = "host";
  /** The session id used when a caller names none. */
  public static final String DEFAULT_ID = "default";

  public SessionKey {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(id, "id");
  }

  /** A session on the {@code host} channel. */
  public static SessionKey host(String id) {
    return new SessionKey(HOST_CHANNEL, id);
  }

  // Written out rather than left to the record's generated methods: those dispatch through
  // ObjectMethods method handles whose shared call sites other records in the process can make
  // megamorphic, and every append looks its session up by this key.
  @Override
  public boolean equals(Object o) {
    return o instanceof SessionKey k && channel.equals(k.channel) && id.equals(k.id);
  }

  @Override
  public int hashCode() {
    return 31 * channel.hashCode() + id.hashCode();
  }

  @Override
  public String toString() {
    return channel + ":" + id;
  }
}
