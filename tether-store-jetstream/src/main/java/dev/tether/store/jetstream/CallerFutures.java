package dev.tether.store.jetstream;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Hands results to callers: a future a caller holds is completed through the store's executor
 * (the builder's {@code executor}, default the common pool), never on a jnats, retry or catch-up
 * thread, and its failure is the cause, not a {@link CompletionException} around it.
 *
 * <p>Thread-safe; holds nothing but the executor. When the executor refuses a task (it was shut
 * down) the completion runs on the calling thread: better there than never.
 */
final class CallerFutures {
  private final Executor executor;

  CallerFutures(Executor executor) {
    this.executor = executor;
  }

  /** A future completed through the executor when {@code inner} completes. */
  <T> CompletableFuture<T> relay(CompletableFuture<T> inner) {
    CompletableFuture<T> outer = new CompletableFuture<>();
    inner.whenComplete((v, e) -> complete(() -> {
      if (e == null) {
        outer.complete(v);
      } else {
        outer.completeExceptionally(unwrap(e));
      }
    }));
    return outer;
  }

  /** Runs {@code completion} on the executor, or here when the executor refuses it. */
  void complete(Runnable completion) {
    try {
      executor.execute(completion);
    } catch (RuntimeException rejected) {
      completion.run(); // the executor shut down: better here than never
    }
  }

  /** Fails {@code f} with {@code cause}; a cancellation cancels it, as the index's own waits are. */
  static void fail(CompletableFuture<?> f, Throwable cause) {
    if (cause instanceof CancellationException) {
      f.cancel(false);
    } else {
      f.completeExceptionally(cause);
    }
  }

  /** The cause of a {@link CompletionException}, else {@code e} itself. */
  static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  /** What a blocking call throws for a future's failure: the cause if unchecked, else wrapped. */
  static RuntimeException asRuntime(Throwable t) {
    t = unwrap(t);
    if (t instanceof RuntimeException r) {
      return r;
    }
    return new IllegalStateException(t);
  }
}
