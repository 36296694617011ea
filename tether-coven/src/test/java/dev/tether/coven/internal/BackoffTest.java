package dev.tether.coven.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
  @Test
  void everyDelay_staysWithinTheJitterBandOfTheCappedExponential_andNeverAboveTheCap() {
    qt().forAll(integers().between(1, 60), doubles().between(0, 0.999_999)).checkAssert((attempt, r) -> {
      Backoff b = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30), 0.2, () -> r);
      long base = Math.min(30_000, 500L << Math.min(attempt - 1, 20));
      long d = b.delay(attempt).toMillis();
      assertTrue(d >= Math.round(base * 0.8) - 1 && d <= Math.min(30_000, Math.round(base * 1.2)), attempt + ": " + d);
    });
  }

  @Test
  void withoutJitter_theDelaysDoubleUntilTheCap() {
    Backoff b = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(5), 0, () -> 0.5);
    assertEquals(1000, b.delay(1).toMillis());
    assertEquals(2000, b.delay(2).toMillis());
    assertEquals(4000, b.delay(3).toMillis());
    assertEquals(5000, b.delay(4).toMillis());
    assertEquals(5000, b.delay(1000).toMillis());
  }

  @Test
  void badSettings_failFastNamingTheSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 0.2, Math::random));
    assertTrue(e.getMessage().startsWith("max backoff must be >= initial"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), 0.2, Math::random));
    assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1), 1.0, Math::random));
  }
}
