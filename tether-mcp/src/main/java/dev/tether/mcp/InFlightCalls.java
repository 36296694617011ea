package dev.tether.mcp;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts the tool calls in progress, so that a server whose input ended can answer them before it
 * closes ({@link StdioServer}). A call counts from when it is read ({@link #expect}, by the stdio
 * guard) or its handler is subscribed ({@link #begin}) until its result or error is emitted or it
 * is cancelled ({@link #end}); idle means every call read has begun and ended. Thread-safe: one lock and condition; waiting never holds
 * the lock while a call runs.
 */
final class InFlightCalls {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition idle = lock.newCondition();
  private int calls;
  private long expected;
  private long started;
  /** Messages handed to the output (answers, notifications, the guard's errors): see {@link #handed()}. */
  private final AtomicLong handed = new AtomicLong();

  /** A message was queued for the output; {@link StdioServer} waits until each is written. */
  void handedToOutput() {
    handed.incrementAndGet();
  }

  /** How many messages were queued for the output so far. */
  long handed() {
    return handed.get();
  }

  /** A call was read and handed to the SDK; it counts as pending until its handler begins. */
  void expect() {
    lock.lock();
    try {
      expected++;
    } finally {
      lock.unlock();
    }
  }

  void begin() {
    lock.lock();
    try {
      calls++;
      started++;
    } finally {
      lock.unlock();
    }
  }

  void end() {
    lock.lock();
    try {
      if (--calls == 0 && started >= expected) {
        idle.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Calls running or read but not yet begun. */
  int count() {
    lock.lock();
    try {
      return (int) Math.max(calls, calls + expected - started);
    } finally {
      lock.unlock();
    }
  }

  /** Waits until no call is in progress or {@code timeout} passed; true when idle. */
  boolean awaitIdle(Duration timeout) throws InterruptedException {
    long left = timeout.toNanos();
    lock.lock();
    try {
      while (calls > 0 || started < expected) {
        if (left <= 0) {
          return false;
        }
        left = idle.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }
}
