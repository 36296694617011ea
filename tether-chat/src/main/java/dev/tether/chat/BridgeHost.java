package dev.tether.chat;

import dev.tether.api.Limits;
import dev.tether.client.TetherClient;
import java.time.Duration;
import java.util.Objects;

/**
 * The tether side of a chat bridge, as the bridge's builder validated it. Immutable.
 *
 * @param client the tether host, in-process or remote
 * @param instance the instance the bridge talks to
 * @param limits the image limits every producer applies
 * @param pollWait how long one long poll of the host waits
 */
public record BridgeHost(TetherClient client, String instance, Limits limits, Duration pollWait) {
  public BridgeHost {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(pollWait, "pollWait");
  }
}
