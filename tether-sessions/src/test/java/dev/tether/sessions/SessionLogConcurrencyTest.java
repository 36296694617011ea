package dev.tether.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tether.api.SessionKey;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionLogConcurrencyTest {
  @TempDir Path root;

  @Test
  void concurrentAppendsAndAssembly_writeEveryTurnOnceAndTheFileMatchesMemory() throws Exception {
    FileBlobStore blobs = Fixtures.blobs(root);
    SessionKey key = SessionKey.host("busy");
    int threads = 4;
    int perThread = 200;
    List<SessionTurn> inMemory;
    try (SessionStore store = Fixtures.sessions(root, blobs)) {
      SessionLog log = store.open(key);
      ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
      try {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          futures.add(pool.submit(() -> {
            start.await();
            for (int i = 0; i < perThread; i++) {
              log.append(Fixtures.user(thread + ":" + i));
            }
            return null;
          }));
        }
        futures.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 200; i++) {
            int size = log.assembleContext("", 50, 1_000_000).turns().size();
            if (size > 50) {
              throw new AssertionError("maxTurns exceeded: " + size);
            }
          }
          return null;
        }));
        start.countDown();
        for (Future<?> f : futures) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
      inMemory = log.turns();
    }
    assertEquals(threads * perThread, inMemory.size());
    Set<String> texts = new HashSet<>();
    for (SessionTurn turn : inMemory) {
      texts.add(((SessionPart.Text) turn.parts().get(0)).text());
    }
    assertEquals(threads * perThread, texts.size(), "every turn exactly once");
    try (SessionStore store = Fixtures.sessions(root, blobs)) {
      assertEquals(inMemory, store.open(key).turns(), "the file holds the turns in the order memory does");
    }
  }
}
