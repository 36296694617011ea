package dev.tether.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.server.RateLimit;
import dev.tether.server.ServerListener;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.Fixtures;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HttpTetherClient} against a real server on 127.0.0.1 that rate-limits its ingress: sends
 * refused 429 are sent again after {@code Retry-After} and every one is delivered exactly once; a
 * wait longer than the client's bound fails at once with {@link RateLimitedException}; a cancelled
 * send stops retrying; attachment uploads are retried the same way.
 */
class RateLimitedSendsTest {
  private static final String TOKEN = "t".repeat(40);

  @TempDir Path dir;
  private TetherServer server;
  private final AtomicInteger refusedFrames = new AtomicInteger();

  private HostAddress start(RateLimit perInstance) throws Exception {
    server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(TOKEN)
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).attachmentsDirectory(dir.resolve("att"))
        .instance("vm").rateLimitPerInstance(perInstance).listener(new ServerListener() {
          @Override
          public void frameRefused(String instance, ErrorCode code) {
            if (code == ErrorCode.RATE_LIMITED) {
              refusedFrames.incrementAndGet();
            }
          }
        }).start();
    return server.boundAddress();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private List<Frame> stored(HttpTetherClient client) throws Exception {
    return client.poll("vm", new PollRequest(null, null, 0, 200, 0, Set.of(), null)).get(30, TimeUnit.SECONDS).frames();
  }

  @Test
  void sendsPastTheBurst_areRetriedAfterRetryAfter_andEveryOneIsDeliveredOnce() throws Exception {
    HostAddress address = start(new RateLimit(4, 4));
    try (HttpTetherClient client = HttpTetherClient.builder(address).token(TOKEN).build()) {
      List<CompletableFuture<SendReceipt>> sends = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        sends.add(client.send("vm", Fixtures.userMessage("s", "m" + i)));
      }
      Set<String> ids = new HashSet<>();
      for (CompletableFuture<SendReceipt> f : sends) {
        ids.add(f.get(30, TimeUnit.SECONDS).msgId());
      }
      assertEquals(8, ids.size());
      assertTrue(refusedFrames.get() >= 1, "the host refused some past its burst: " + refusedFrames.get());
      List<Frame> frames = stored(client);
      assertEquals(8, frames.size(), "each delivered once");
      Set<String> texts = new HashSet<>();
      frames.forEach(f -> texts.add(((Payload.UserMessage) f.payloadView()).text()));
      assertEquals(8, texts.size(), texts.toString());
    }
  }

  @Test
  void aWaitLongerThanTheClientsBound_failsAtOnceWithRateLimitedException_andNoRetriesFailsTheFirst429() throws Exception {
    HostAddress address = start(new RateLimit(1.0 / 3600, 1)); // the second send must wait an hour
    try (HttpTetherClient client = HttpTetherClient.builder(address).token(TOKEN).build();
        HttpTetherClient impatient = HttpTetherClient.builder(address).token(TOKEN).rateLimitRetries(0, Duration.ofHours(2))
            .build()) {
      client.send("vm", Fixtures.userMessage("s", "first")).get(30, TimeUnit.SECONDS);
      long began = System.nanoTime();
      ExecutionException e = assertThrows(ExecutionException.class,
          () -> client.send("vm", Fixtures.userMessage("s", "second")).get(30, TimeUnit.SECONDS));
      assertTrue(System.nanoTime() - began < TimeUnit.SECONDS.toNanos(10), "no pointless wait");
      RateLimitedException limited = assertInstanceOf(RateLimitedException.class, e.getCause());
      assertEquals(1, limited.attempts());
      assertTrue(limited.retryAfter().toSeconds() >= 3500, limited.retryAfter().toString());
      assertTrue(limited.getMessage().contains("RATE_LIMITED"), limited.getMessage());
      assertEquals(1, assertInstanceOf(RateLimitedException.class, assertThrows(ExecutionException.class,
          () -> impatient.send("vm", Fixtures.userMessage("s", "third")).get(30, TimeUnit.SECONDS)).getCause()).attempts());
      assertEquals(1, stored(client).size());
      assertThrows(IllegalArgumentException.class, () -> HttpTetherClient.builder(address).rateLimitRetries(-1, Duration.ZERO));
    }
  }

  @Test
  void aCancelledSend_stopsRetrying_andAnAttachmentUploadIsRetriedLikeAFrame() throws Exception {
    HostAddress address = start(new RateLimit(1, 1));
    try (HttpTetherClient client = HttpTetherClient.builder(address).token(TOKEN).build()) {
      client.send("vm", Fixtures.userMessage("s", "first")).get(30, TimeUnit.SECONDS);
      CompletableFuture<SendReceipt> cancelled = client.send("vm", Fixtures.userMessage("s", "never"));
      for (int i = 0; i < 200 && refusedFrames.get() == 0; i++) {
        Thread.sleep(10); // until its first 429 arrived
      }
      assertTrue(cancelled.cancel(true));
      assertThrows(CancellationException.class, cancelled::join);
      // The bucket refills in 1 s; the upload takes the token (after its own 429 at most), the cancelled send never does.
      client.putAttachment("vm", SessionKey.host("s"), "a.txt", "text/plain", "hello".getBytes(StandardCharsets.UTF_8))
          .get(30, TimeUnit.SECONDS);
      Thread.sleep(1_300); // past the cancelled send's Retry-After
      List<Frame> frames = stored(client);
      assertEquals(1, frames.size(), "the cancelled send was never sent again");
    }
  }
}
