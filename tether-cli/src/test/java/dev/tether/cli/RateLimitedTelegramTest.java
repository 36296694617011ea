package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Payload;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.RateLimit;
import dev.tether.server.ServerListener;
import dev.tether.server.TetherServer;
import dev.tether.store.MemoryTetherStore;
import dev.tether.telegram.BotToken;
import dev.tether.telegram.TelegramBridge;
import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Telegram bridge against a host that rate-limits its ingress low: a burst of chat messages
 * is slowed to the host's pace and every message reaches the host exactly once, in order, and is
 * confirmed to Telegram; both when the HTTP client waits out {@code Retry-After} itself and when it
 * gives up at once and the bridge's own backoff retries ({@code RateLimitedException} is transient
 * to it). The host and the bridge run in-process, the Bot API is the local fake.
 */
class RateLimitedTelegramTest {
  private static final long CHAT = 4242L;
  private static final int MESSAGES = 10;

  @TempDir Path dir;

  @Test
  void aBurstOfChatMessages_isSlowedByTheHostsLimit_andEveryOneIsDeliveredOnceInOrder() throws Exception {
    deliverBurst("patient", b -> b);
  }

  @Test
  void aClientThatGivesUpAtOnce_leavesTheRetryingToTheBridge_andNothingIsLost() throws Exception {
    deliverBurst("impatient", b -> b.rateLimitRetries(0, Duration.ZERO));
  }

  private void deliverBurst(String name, UnaryOperator<HttpTetherClient.Builder> client) throws Exception {
    AtomicInteger limited = new AtomicInteger();
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve(name + ".sock"));
    try (TetherServer server = TetherServer.builder().listen(address).store(MemoryTetherStore.create())
        .workspaces(dir.resolve("ws")).instance("vm").rateLimitPerInstance(new RateLimit(4, 2))
        .listener(new ServerListener() {
          @Override
          public void frameRefused(String instance, ErrorCode code) {
            if (code == ErrorCode.RATE_LIMITED) {
              limited.incrementAndGet();
            }
          }
        }).start();
        HttpTetherClient host = client.apply(HttpTetherClient.builder(address)).build();
        RecordingBotApi telegram = new RecordingBotApi()) {
      List<String> sent = new ArrayList<>();
      for (int i = 0; i < MESSAGES; i++) {
        sent.add("message " + i);
        telegram.addMessage(TgMessages.text(CHAT, "message " + i));
      }
      try (TelegramBridge bridge = TelegramBridge.builder().client(host).instance("vm").token(BotToken.of(RecordingBotApi.TOKEN))
          .apiUrl(telegram.url()).allowedChats(Set.of(CHAT)).stateDir(dir.resolve(name + "-state"))
          .pollWait(Duration.ofSeconds(1)).retryBackoff(Duration.ofMillis(250), Duration.ofSeconds(1)).build()) {
        bridge.start();
        List<String> forwarded = List.of();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && (forwarded.size() < MESSAGES || !telegram.allConfirmed())) {
          Thread.sleep(50);
          forwarded = texts(host);
        }
        assertEquals(sent, forwarded, "every message once, in order");
        assertTrue(telegram.allConfirmed(), "every update confirmed to Telegram");
        assertTrue(limited.get() >= 1, "the host held the bridge to its rate: " + limited.get() + " refusals");
      }
    }
  }

  private static List<String> texts(HttpTetherClient host) throws Exception {
    List<String> out = new ArrayList<>();
    for (Frame f : host.poll("vm", new PollRequest(null, null, 0, 200, 0, Set.of(FrameTypes.USER_MESSAGE), null))
        .get(30, TimeUnit.SECONDS).frames()) {
      out.add(((Payload.UserMessage) f.payloadView()).text());
    }
    return out;
  }
}
