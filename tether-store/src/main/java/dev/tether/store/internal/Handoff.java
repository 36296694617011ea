package dev.tether.store.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the completion of a caller-visible future on the store's {@link Executor}, so that code the
 * caller attached never runs on an appending, timer or writer thread, under a lock or inside a map
 * compute. Callers of these methods hold no lock.
 *
 * <p>An executor that rejects the task (one that was shut down) is reported once through
 * {@link System.Logger} and the task then runs on the calling thread: a future that completes on
 * the wrong thread is better than one that never completes.
 */
public final class Handoff {
  private static final System.Logger LOG = System.getLogger(Handoff.class.getName());
  private static final AtomicBoolean REJECTION_LOGGED = new AtomicBoolean();

  private Handoff() {}

  public static void run(Executor executor, Runnable task) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      if (REJECTION_LOGGED.compareAndSet(false, true)) {
        LOG.log(System.Logger.Level.WARNING,
            "the store's executor rejected a completion; running it on the store's thread", e);
      }
      task.run();
    }
  }
}
