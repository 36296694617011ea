package dev.tether.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Idle session logs close their files: a store holds a bounded number open however many sessions it serves. */
class SessionStoreOpenFilesTest {
  @TempDir Path root;

  private static long openFileDescriptors() throws IOException {
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }

  @Test
  void manySessions_keepAtMostTheDefault64FilesOpen_andFileDescriptorsStayBounded() throws IOException {
    FileBlobStore blobs = Fixtures.blobs(root);
    long before = openFileDescriptors();
    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).durable(false).build()) {
      for (int i = 0; i < 300; i++) {
        store.open(SessionKey.host("s" + i)).append(Fixtures.user("hello " + i));
      }
      assertEquals(SessionStore.DEFAULT_MAX_OPEN_FILES, store.openFileCount());
      long growth = openFileDescriptors() - before;
      // 64 session files plus a little slack for the JVM's own (class loading, the blob store).
      assertTrue(growth <= SessionStore.DEFAULT_MAX_OPEN_FILES + 16, "file descriptors grew by " + growth);
    }
  }

  @Test
  void idleLogClosedByTheBound_appendsAgainTransparently_andEveryTurnSurvivesAReload() throws IOException {
    FileBlobStore blobs = Fixtures.blobs(root);
    List<SessionLog> logs = new ArrayList<>();
    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).durable(false).maxOpenFiles(4).build()) {
      for (int i = 0; i < 20; i++) {
        SessionLog log = store.open(SessionKey.host("s" + i));
        log.append(Fixtures.user("first " + i));
        logs.add(log);
      }
      assertEquals(4, store.openFileCount());
      assertTrue(!logs.get(0).holdsFile(), "the least recently used log keeps its file open");
      // The caller still holds the old log: it appends again, its file reopens at the right place.
      for (int i = 0; i < 20; i++) {
        logs.get(i).append(Fixtures.user("second " + i));
        assertTrue(store.openFileCount() <= 4, "open files: " + store.openFileCount());
      }
      assertTrue(store.open(SessionKey.host("s0")) == logs.get(0), "open() handed out a new log for a released one");
    }
    try (SessionStore store = Fixtures.sessions(root, blobs)) {
      for (int i = 0; i < 20; i++) {
        SessionLog log = store.open(SessionKey.host("s" + i));
        assertEquals(List.of(Fixtures.user("first " + i), Fixtures.user("second " + i)), log.turns(), "session " + i);
        assertEquals(0, log.skippedLines());
      }
    }
  }

  @Test
  void concurrentAppendsAcrossManySessions_withOneOpenFile_loseNoTurnAndNeverDeadlock() throws Exception {
    FileBlobStore blobs = Fixtures.blobs(root);
    int sessions = 12;
    int perThread = 40;
    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).durable(false).maxOpenFiles(1).build()) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int thread = t;
          done.add(pool.submit(() -> {
            for (int n = 0; n < perThread; n++) {
              store.open(SessionKey.host("s" + ((thread + n) % sessions))).append(Fixtures.user(thread + "-" + n));
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get(120, TimeUnit.SECONDS); // generous: a deadlock would hang here, not a slow machine
        }
      } finally {
        pool.shutdownNow();
      }
    }
    int total = 0;
    try (SessionStore store = Fixtures.sessions(root, blobs)) {
      for (int i = 0; i < sessions; i++) {
        SessionLog log = store.open(SessionKey.host("s" + i));
        assertEquals(0, log.skippedLines());
        total += log.size();
      }
    }
    assertEquals(4 * perThread, total);
  }

  @Test
  void ingest_userMessageOf300KiBText_isStoredAndReloaded() throws IOException {
    FileBlobStore blobs = Fixtures.blobs(root);
    SessionKey key = SessionKey.host("big");
    String text = "x".repeat(300 * 1024);
    Frame frame = Fixtures.userMessage(key, null, text);
    try (SessionStore store = Fixtures.sessions(root, blobs)) {
      store.open(key).ingest(frame);
      assertTrue(store.maxLineBytes() > 28 * 1024 * 1024, "line limit " + store.maxLineBytes());
    }
    try (SessionStore store = Fixtures.sessions(root, blobs)) {
      SessionLog log = store.open(key);
      assertEquals(1, log.size());
      assertEquals(0, log.skippedLines());
    }
  }
}
