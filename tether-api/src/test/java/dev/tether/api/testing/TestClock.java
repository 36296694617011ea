package dev.tether.api.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that only moves when a test advances it; thread-safe. */
public final class TestClock extends Clock {
  private final AtomicReference<Instant> now;

  public TestClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  public TestClock() {
    this(Instant.parse("2026-04-15T10:00:00Z"));
  }

  public void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
