package dev.tether.server.internal;

import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tether.api.Frame;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import dev.tether.store.Subscription;
import dev.tether.store.TetherStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An Error in the server's async paths is answered with a JSON 5xx and counted, never a silent hang. */
class ServerErrorPathTest {
  @TempDir Path dir;

  /** A store whose appends and waits run out of memory, as a full heap makes them. */
  private static class OutOfMemoryStore implements TetherStore {
    private final MemoryTetherStore delegate = MemoryTetherStore.create();

    @Override
    public long append(String instance, Frame frame) {
      throw new OutOfMemoryError("Java heap space (injected)");
    }

    @Override
    public QueryResult query(String instance, FrameQuery query) {
      return delegate.query(instance, query);
    }

    @Override
    public CompletableFuture<QueryResult> waitForFrames(String instance, FrameQuery query, Duration timeout) {
      return CompletableFuture.failedFuture(new OutOfMemoryError("Java heap space (injected)"));
    }

    @Override
    public Subscription subscribe(String instance, int bufferFrames) {
      return delegate.subscribe(instance, bufferFrames);
    }

    @Override
    public boolean remove(String instance) {
      return delegate.remove(instance);
    }

    @Override
    public long lastSeq(String instance) {
      return delegate.lastSeq(instance);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  @Test
  void outOfMemoryInAppendAndWait_answered503JsonAndCounted() throws Exception {
    HostAddress.Unix a = new HostAddress.Unix(dir.resolve("t.sock"));
    try (Daemon server = Daemon.start(a, new OutOfMemoryStore(), null, 8); RawHttp http = new RawHttp(a)) {
      for (int i = 0; i < 3; i++) {
        RawHttp.Reply post = http.post("/v1/instances/a/tether",
            Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"x\"}}"));
        assertEquals(503, post.status(), post.body());
        assertEquals("UNAVAILABLE", post.errorCode());
      }
      RawHttp.Reply poll = http.get("/v1/instances/a/tether/poll?wait_ms=1000");
      assertEquals(503, poll.status(), poll.body());
      assertEquals("UNAVAILABLE", poll.errorCode());
      assertEquals(4, server.handler().failures());
      assertEquals(200, http.get("/v1/health").status());
    }
  }

  @Test
  void anInternalFailure_isAnswered500Internal_namingNoPathAndNoExceptionClass() throws Exception {
    HostAddress.Unix a = new HostAddress.Unix(dir.resolve("t.sock"));
    TetherStore leaky = new OutOfMemoryStore() {
      @Override
      public long append(String instance, Frame frame) {
        throw new java.io.UncheckedIOException(new java.nio.file.FileAlreadyExistsException("/srv/secret/afile"));
      }
    };
    try (Daemon server = Daemon.start(a, leaky, null, 8); RawHttp http = new RawHttp(a)) {
      RawHttp.Reply post = http.post("/v1/instances/a/tether",
          Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"x\"}}"));
      assertEquals(500, post.status(), post.body());
      assertEquals("INTERNAL", post.errorCode());
      org.junit.jupiter.api.Assertions.assertFalse(post.body().contains("/srv/secret") || post.body().contains("Exception"), post.body());
      assertEquals(1, server.handler().failures(), "the log has it, once");
    }
  }
}
