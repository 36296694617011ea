package dev.tether.api;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** RFC 3339 timestamps: written in UTC with up to nanosecond precision, read with any offset. */
final class Timestamps {
  private Timestamps() {}

  static Instant parse(String text) {
    try {
      return OffsetDateTime.parse(text.toUpperCase(Locale.ROOT), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME,
          "ts must be an RFC 3339 timestamp such as 2026-01-02T03:04:05.123Z", e);
    }
  }

  static String format(Instant ts) {
    return DateTimeFormatter.ISO_INSTANT.format(ts);
  }
}
