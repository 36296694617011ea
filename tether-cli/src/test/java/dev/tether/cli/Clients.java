package dev.tether.cli;

import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.testing.RawHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** The HTTP client as the end-to-end tests use it: built in one call, polled with the query's own parameters. */
final class Clients {
  private Clients() {}

  /** A client of the host at {@code address}, with {@code token} when it is not null. */
  static HttpTetherClient of(HostAddress address, String token) {
    try {
      HttpTetherClient.Builder b = HttpTetherClient.builder(address);
      if (token != null) {
        b.token(token);
      }
      return b.build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A poll as the HTTP query spells it: {@code "*"} or null for any channel or session, a limit
   * of 0 or less for the server's default, null or empty types for all.
   */
  static CompletableFuture<FramePage> poll(TetherClient client, String instance, String channel, String sessionId,
      long afterSeq, int limit, long waitMs, Collection<String> types, String replyToMsgId) {
    return client.poll(instance, new PollRequest("*".equals(channel) ? null : channel, "*".equals(sessionId) ? null : sessionId,
        afterSeq, limit <= 0 ? PollRequest.DEFAULT_LIMIT : limit, waitMs, types == null ? Set.of() : Set.copyOf(types), replyToMsgId));
  }

  /** The waits (long-polls and streams) the host at {@code address} holds, from {@code GET /v1/health}. */
  static int waitsHeld(HostAddress address, String token) throws Exception {
    try (RawHttp http = new RawHttp(address)) {
      RawHttp.Reply r = token == null ? http.get("/v1/health") : http.get("/v1/health", "Bearer " + token);
      return r.json().path("waits").asInt();
    }
  }
}
