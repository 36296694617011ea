package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.DateTimeException;
import java.time.Instant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SessionTimestampsTest {
  @Property(tries = 2000)
  void fastPath_agreesWithInstantParseOnWhatInstantToStringWrites(
      @ForAll @LongRange(min = 0, max = 253_402_300_799L) long seconds, @ForAll @IntRange(min = 0, max = 999_999_999) int nanos,
      @ForAll boolean wholeSeconds) {
    Instant instant = Instant.ofEpochSecond(seconds, wholeSeconds ? 0 : nanos);
    String text = instant.toString();
    assertEquals(instant, SessionTimestamps.fastPath(text), text);
    assertEquals(Instant.parse(text), SessionTimestamps.parse(text));
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
