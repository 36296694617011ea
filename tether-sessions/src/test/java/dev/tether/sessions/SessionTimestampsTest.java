package dev.tether.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.time.DateTimeException;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

class SessionTimestampsTest {
  @Test
  void fastPath_agreesWithInstantParseOnWhatInstantToStringWrites() {
    qt().withExamples(2000)
        .forAll(longs().between(0, 253_402_300_799L), nanos(), booleans().all())
        .checkAssert((seconds, nanos, wholeSeconds) -> {
          Instant instant = Instant.ofEpochSecond(seconds, wholeSeconds ? 0 : nanos);
          String text = instant.toString();
          assertEquals(instant, SessionTimestamps.fastPath(text), text);
          assertEquals(Instant.parse(text), SessionTimestamps.parse(text));
        });
  }

  /**
   * 0 to 999,999,999, a third of them whole micros and a third whole millis: Instant.toString
   * writes 9, 6 or 3 fraction digits, and a uniform draw would almost always give 9.
   */
  private static Gen<Integer> nanos() {
    Gen<Integer> any = integers().between(0, 999_999_999);
    return Generate.oneOf(any, any.map(n -> n / 1000 * 1000), any.map(n -> n / 1_000_000 * 1_000_000));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-01-01T00:00:00+01:00", "+10000-01-01T00:00:00Z", "2026-01-01T23:59:60Z", "2026-01-01T00:00:00.Z",
      "2026-02-30T00:00:00Z", "2026-01-01 00:00:00Z", "2026-1-01T00:00:00Z", "2026-01-01T00:00:00.1234567890Z"})
  void fastPath_leavesOtherSpellingsToInstantParse(String text) {
    assertNull(SessionTimestamps.fastPath(text));
  }

  @Test
  void parse_acceptsAnOffsetAndRejectsNonsense() {
    assertEquals(Instant.parse("2025-12-31T23:00:00Z"), SessionTimestamps.parse("2026-01-01T00:00:00+01:00"));
    assertThrows(DateTimeException.class, () -> SessionTimestamps.parse("2026-02-30T00:00:00Z"));
    assertThrows(DateTimeException.class, () -> SessionTimestamps.parse("yesterday"));
  }
}
