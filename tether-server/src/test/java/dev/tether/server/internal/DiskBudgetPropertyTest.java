package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.media.Attachment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk budget's accounting on real files, through the same pieces the routes use (the
 * attachment store, the instance's files usage, the budget): under any sequence of uploads and deletes
 * (sizes around the budget, deletes of any stored name, sessions mixed), the instance's files never
 * pass the budget, an upload is refused only when it would pass it, and a delete always makes its
 * room usable again. Also with uploads from many threads at once.
 */
class DiskBudgetPropertyTest {
  private static final int BUDGET = 2_000;
  private static final AtomicInteger RUN = new AtomicInteger();

  @TempDir static Path root;

  private static InstanceRegistry.Entry freshInstance() {
    try {
      int run = RUN.incrementAndGet();
      return new InstanceRegistry.Entry("vm" + run, Files.createDirectories(root.resolve("ws-" + run)), Instant.EPOCH);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An upload as the route makes it: the bytes plus a bound of its manifest entry, under the budget. */
  private static Attachment upload(DiskBudget disk, AttachmentStore store, InstanceRegistry.Entry vm, SessionKey s, int size)
      throws IOException {
    return disk.write(vm, size, AttachmentRoutes.manifestEntryBytes("f.bin", null),
        () -> store.save(vm, s, "f.bin", null, new byte[size]));
  }

  @Test
  void anySequenceOfUploadsAndDeletes_neverPassesTheBudget_andRefusesOnlyWhatWouldPassIt() {
    AttachmentStore store = AttachmentStore.inDirectory(root.resolve("attachments"), BUDGET);
    InstanceFilesUsage usage = new InstanceFilesUsage(store);
    DiskBudget disk = new DiskBudget(BUDGET, usage);
    // n >= 0: upload n bytes (to session n % 2); n < 0: delete the (-n)th stored attachment, if any.
    qt().withExamples(60).forAll(lists().of(integers().between(-6, BUDGET)).ofSizeBetween(1, 25)).checkAssert(ops -> {
      InstanceRegistry.Entry vm = freshInstance();
      List<Attachment> stored = new ArrayList<>();
      List<SessionKey> sessions = new ArrayList<>();
      try {
        for (int op : ops) {
          long before = usage.bytes(vm);
          if (op >= 0) {
            SessionKey s = SessionKey.host("s" + (op % 2));
            long cost = op + AttachmentRoutes.manifestEntryBytes("f.bin", null);
            try {
              stored.add(upload(disk, store, vm, s, op));
              sessions.add(s);
            } catch (TetherException e) {
              assertEquals(ErrorCode.INSUFFICIENT_STORAGE, e.code());
              assertTrue(before + cost > BUDGET, "refused " + op + " bytes with " + before + " of " + BUDGET + " used");
              assertEquals(before, usage.bytes(vm), "nothing of a refused upload is written");
            }
          } else if (!stored.isEmpty()) {
            int i = (-op) % stored.size();
            store.delete(vm, sessions.get(i), stored.get(i).fileName());
            stored.remove(i);
            sessions.remove(i);
            assertTrue(usage.bytes(vm) < before || before == 0, "a delete frees room: " + before + " -> " + usage.bytes(vm));
          }
          assertTrue(usage.bytes(vm) <= BUDGET, "over the budget after " + op + ": " + usage.bytes(vm));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Test
  void uploadsFromManyThreadsAtOnce_neverPassTheBudgetTogether() throws Exception {
    AttachmentStore store = AttachmentStore.inDirectory(root.resolve("attachments"), BUDGET);
    InstanceFilesUsage usage = new InstanceFilesUsage(store);
    DiskBudget disk = new DiskBudget(BUDGET, usage);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      for (int round = 0; round < 20; round++) {
        InstanceRegistry.Entry vm = freshInstance();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> all = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
          SessionKey s = SessionKey.host("s" + (i % 3));
          all.add(pool.submit(() -> {
            start.await();
            try {
              upload(disk, store, vm, s, 300);
              return true;
            } catch (TetherException e) {
              return false;
            }
          }));
        }
        start.countDown();
        int ok = 0;
        for (Future<Boolean> f : all) {
          ok += f.get() ? 1 : 0;
        }
        assertTrue(usage.bytes(vm) <= BUDGET, "round " + round + ": " + usage.bytes(vm) + " bytes after " + ok + " uploads");
        assertTrue(ok >= 1, "the first upload always fits");
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
