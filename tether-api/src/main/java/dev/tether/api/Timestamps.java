package dev.tether.api;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** RFC 3339 timestamps: written in UTC with up to nanosecond precision, read with any offset. */
final class Timestamps {
  /** RFC 3339 years have four digits; the UTC instant must have one too, so that it can be written. */
  private static final Instant FIRST = Instant.parse("0000-01-01T00:00:00Z");
  private static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999999999Z");

  private Timestamps() {}

  static Instant parse(String text) {
    Instant instant;
    try {
      instant = OffsetDateTime.parse(text.toUpperCase(Locale.ROOT), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      throw invalid(e);
    }
    if (!fourDigitYear(text) || !writable(instant)) {
      throw invalid(null);
    }
    return instant;
  }

  /** Whether {@code ts} has a four-digit UTC year, so that its written form is RFC 3339. */
  static boolean writable(Instant ts) {
    return !ts.isBefore(FIRST) && !ts.isAfter(LAST);
  }

  private static boolean fourDigitYear(String text) {
    if (text.length() < 5 || text.charAt(4) != '-') {
      return false;
    }
    for (int i = 0; i < 4; i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static TetherException invalid(DateTimeParseException cause) {
    return TetherException.of(ErrorCode.MALFORMED_FRAME,
        "ts must be an RFC 3339 timestamp such as 2026-01-02T03:04:05.123Z", cause);
  }

  static String format(Instant ts) {
    return DateTimeFormatter.ISO_INSTANT.format(ts);
  }
}
