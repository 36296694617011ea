package dev.tether.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.SessionKey;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.client.TokenFile;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.MemoryTetherStore;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a real server on 127.0.0.1 calls its {@link InstanceWaker}, and when it never does. */
class InstanceWakerTest {
  private static final String TOKEN = "w".repeat(TokenFile.MIN_BYTES);
  private static final String AUTH = "Bearer " + TOKEN;
  private static final Duration IDLE = Duration.ofMillis(300);

  @TempDir Path dir;

  /** Counts the calls per instance, and opens a latch per expected instance. */
  static final class RecordingWaker implements InstanceWaker {
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final Map<String, CountDownLatch> woken = new ConcurrentHashMap<>();
    final Map<String, String> threads = new ConcurrentHashMap<>();

    RecordingWaker expect(String instance) {
      woken.put(instance, new CountDownLatch(1));
      return this;
    }

    @Override
    public void wake(String instance) {
      threads.put(instance, Thread.currentThread().getName());
      calls.computeIfAbsent(instance, k -> new AtomicInteger()).incrementAndGet();
      CountDownLatch l = woken.get(instance);
      if (l != null) {
        l.countDown();
      }
    }

    int count(String instance) {
      AtomicInteger n = calls.get(instance);
      return n == null ? 0 : n.get();
    }

    /** Waits (bounded) until {@code instance} was woken {@code n} times. */
    void awaitCount(String instance, int n) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (count(instance) < n && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(n, count(instance));
    }

    void await(String instance) throws InterruptedException {
      assertTrue(woken.get(instance).await(10, TimeUnit.SECONDS), instance + " was not woken");
    }
  }

  private TetherServer start(RecordingWaker waker, String... instances) throws Exception {
    TetherServer.Builder b = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(TOKEN)
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).waker(waker).wakeIdle(IDLE);
    for (String i : instances) {
      b.instance(i);
    }
    return b.start();
  }

  private static void post(RawHttp http, String instance, Frame frame) {
    try {
      assertEquals(202, http.send("POST", "/v1/instances/" + instance + "/tether", "application/json", Fixtures.wire(frame), AUTH)
          .status());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aBurstOfPosts_wakesEachIdleInstanceOnce_offTheRequestThreads_andTheAgentsOwnFramesWakeNobody_andAReadStartsANewSpell() throws Exception {
    RecordingWaker waker = new RecordingWaker().expect("vm1").expect("vm2");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (TetherServer server = start(waker, "vm1", "vm2", "vm3"); RawHttp http = new RawHttp(server.boundAddress())) {
      CompletableFuture<?>[] burst = new CompletableFuture<?>[40];
      for (int i = 0; i < burst.length; i++) {
        String instance = i % 2 == 0 ? "vm1" : "vm2";
        int n = i;
        burst[i] = CompletableFuture.runAsync(() -> post(http, instance, Fixtures.userMessage("s", "m" + n)), pool);
      }
      post(http, "vm3", Frames.assistantDone(SessionKey.host("s"), "host-1", "from the agent", List.of()));
      CompletableFuture.allOf(burst).get(30, TimeUnit.SECONDS);
      waker.await("vm1");
      waker.await("vm2");
      // A second wake could come no sooner than one idle time after the first began: wait past it.
      Thread.sleep(2 * IDLE.toMillis());
      assertEquals(1, waker.count("vm1"));
      assertEquals(1, waker.count("vm2"));
      assertEquals(0, waker.count("vm3"), "an agent's own frame never wakes it");
      assertTrue(waker.threads.get("vm1").startsWith("tether-wake-"), waker.threads.toString());
      // Its agent came up and read, then went away: the next frame after the idle time wakes it again.
      assertEquals(200, http.get("/v1/instances/vm1/tether/poll", AUTH).status());
      post(http, "vm1", Fixtures.userMessage("s", "later"));
      waker.awaitCount("vm1", 2);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void builder_refusesANonPositiveIdleTime() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TetherServer.builder().wakeIdle(Duration.ZERO));
    assertEquals("wakeIdle must be > 0 but was PT0S", e.getMessage());
  }

  @Test
  void anInstanceWithALiveStreamOrPoll_isNeverWoken_whileAnIdleOneIs() throws Exception {
    RecordingWaker waker = new RecordingWaker().expect("idle");
    try (TetherServer server = start(waker, "streamed", "polled", "mcp", "idle");
         RawHttp http = new RawHttp(server.boundAddress())) {
      HostAddress.Tcp a = (HostAddress.Tcp) server.boundAddress();
      HttpClient client = HttpClient.newHttpClient();
      HttpResponse<InputStream> stream = client.send(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + a.port() + "/v1/instances/streamed/tether/stream")).header("Authorization", AUTH).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      assertEquals(200, stream.statusCode());
      // A long-poll for another session: it stays open while frames of this session arrive.
      CompletableFuture<HttpResponse<String>> poll = client.sendAsync(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + a.port() + "/v1/instances/polled/tether/poll?session_id=elsewhere&wait_ms=30000"))
          .header("Authorization", AUTH).build(), HttpResponse.BodyHandlers.ofString());
      // An in-process reader (what the MCP tools use): a poll waiting for another session.
      TetherClient local = server.localClient();
      CompletableFuture<?> localPoll = local.poll("mcp", new PollRequest("host", "elsewhere", 0, 50, 30_000, Set.of(), null));
      while (server.stats().waits() + server.stats().streams() < 2) {
        Thread.onSpinWait(); // the stream and the HTTP poll are held
      }
      for (int i = 0; i < 10; i++) {
        for (String instance : List.of("streamed", "polled", "mcp", "idle")) {
          post(http, instance, Fixtures.userMessage("s", "m" + i));
        }
      }
      waker.await("idle");
      Thread.sleep(2 * IDLE.toMillis());
      assertEquals(0, waker.count("streamed"), "a stream is open");
      assertEquals(0, waker.count("polled"), "a long-poll is open");
      assertEquals(0, waker.count("mcp"), "an in-process poll is open");
      assertFalse(poll.isDone());
      stream.body().close();
      localPoll.cancel(false);
      local.close();
    }
  }
}
