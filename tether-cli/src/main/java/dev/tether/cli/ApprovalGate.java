package dev.tether.cli;

import dev.tether.api.ToolPayload;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * The demo agent's approval requests waiting for their {@code control.tool_approval}: one entry
 * per asked id, at most {@link #MAX_PENDING}. An answer for an id nobody asked (or asked and gave
 * up on) is refused. Thread-safe: the poll thread answers, the reply threads wait.
 */
final class ApprovalGate {
  static final int MAX_PENDING = 64;

  private final Map<String, CompletableFuture<ToolPayload.ApprovalAnswer>> pending = new ConcurrentHashMap<>();

  /**
   * Registers {@code id}; then {@link #await} gives its answer.
   *
   * @return false when {@link #MAX_PENDING} approvals already wait or the id is taken
   */
  boolean ask(String id) {
    if (pending.size() >= MAX_PENDING) {
      return false;
    }
    return pending.putIfAbsent(id, new CompletableFuture<>()) == null;
  }

  /**
   * Waits for the answer to {@code id} for at most {@code timeout}, giving up early when
   * {@code cancelled} turns true. Empty when none came; the id is forgotten either way.
   */
  Optional<ToolPayload.ApprovalAnswer> await(String id, Duration timeout, BooleanSupplier cancelled)
      throws InterruptedException {
    CompletableFuture<ToolPayload.ApprovalAnswer> answer = pending.get(id);
    if (answer == null) {
      return Optional.empty();
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (!cancelled.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return Optional.empty();
        }
        try {
          return Optional.of(answer.get(Math.min(left, TimeUnit.MILLISECONDS.toNanos(250)), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
          // look at cancelled again
        } catch (ExecutionException e) {
          return Optional.empty(); // never completed exceptionally
        }
      }
      return Optional.empty();
    } finally {
      pending.remove(id);
    }
  }

  /** Delivers {@code answer}; false when no approval with its id is waiting. */
  boolean answer(ToolPayload.ApprovalAnswer answer) {
    CompletableFuture<ToolPayload.ApprovalAnswer> waiting = pending.get(answer.id());
    return waiting != null && waiting.complete(answer);
  }
}
