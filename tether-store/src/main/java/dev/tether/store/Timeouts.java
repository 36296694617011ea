package dev.tether.store;

/**
 * Where wait timeouts run: one shared scheduler per store, never a thread per wait. Tests
 * substitute a scheduler they control (the Lincheck model checker cannot explore a real timer).
 */
interface Timeouts {
  /** Runs {@code task} after {@code nanos}; the returned action cancels it. */
  Runnable schedule(Runnable task, long nanos);
}
