package dev.tether.cli;

import dev.tether.images.ByteSizes;
import picocli.CommandLine;

/**
 * Sizes on the command line: plain bytes ({@code 1048576}) or a whole number of {@code KiB},
 * {@code MiB} or {@code GiB} ({@code 64MiB}, {@code 1 GiB}; units case-insensitive). The one
 * parser for every size option; stateless.
 */
final class ByteSize implements CommandLine.ITypeConverter<Long> {
  private static final String[] UNITS = {"KiB", "MiB", "GiB"};

  /**
   * Parses a size.
   *
   * @throws IllegalArgumentException naming the value and the accepted forms when it is empty,
   *     negative, not a whole number, has another unit, or does not fit a {@code long}
   */
  static long parse(String value) {
    if (value == null) {
      throw new IllegalArgumentException("a size is required (bytes, or a number with KiB, MiB or GiB)");
    }
    String v = value.strip();
    int shift = 0;
    String digits = v;
    for (int i = 0; i < UNITS.length; i++) {
      if (v.length() > 3 && v.regionMatches(true, v.length() - 3, UNITS[i], 0, 3)) {
        shift = 10 * (i + 1);
        digits = v.substring(0, v.length() - 3).strip();
        break;
      }
    }
    if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException("size must be bytes or a whole number with KiB, MiB or GiB (e.g. 64MiB) but was '"
          + value + "'");
    }
    long n;
    try {
      n = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("size '" + value + "' is too large");
    }
    if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException("size '" + value + "' is too large");
    }
    return n << shift;
  }

  /** The size in the largest unit that divides it exactly: {@code 64MiB}, {@code 1000}. */
  static String format(long bytes) {
    for (int i = UNITS.length - 1; i >= 0; i--) {
      int shift = 10 * (i + 1);
      if (bytes != 0 && bytes % (1L << shift) == 0) {
        return (bytes >> shift) + UNITS[i];
      }
    }
    return Long.toString(bytes);
  }

  /** For humans: {@link ByteSizes#binaryCompact}, one decimal in the largest unit below the value ({@code 1.5GiB}). */
  static String human(long bytes) {
    return ByteSizes.binaryCompact(bytes);
  }

  @Override
  public Long convert(String value) {
    try {
      return parse(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
