package dev.tether.media;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Human sizes for placeholders, in <em>decimal</em> units as the lazy-media spec's examples
 * ({@code 2.4MB}, {@code 847KB}) read: 1 KB = 1000 bytes, 1 MB = 1000 KB, and so on up to EB.
 *
 * <ul>
 *   <li>Below 1000 bytes: the exact count and {@code B} ({@code 999B}).
 *   <li>Otherwise the largest unit that keeps the value at least 1, with one decimal when the
 *       value is below 10 and none from 10 on, rounded half-up; a trailing {@code .0} is dropped
 *       ({@code 2000000} is {@code 2MB}). A value that rounds up to 1000 moves to the next unit
 *       ({@code 999500} is {@code 1MB}, never {@code 1000KB}).
 * </ul>
 *
 * <p>Parsing accepts that form and its relatives: any number of digits with an optional
 * fraction, optional spaces, and a unit of B, KB, MB, GB, TB, PB or EB in any case. It returns
 * the approximate byte count. Stateless and thread-safe.
 */
final class MediaSizes {
  private static final String[] UNITS = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
  private static final Pattern SIZE =
      Pattern.compile("\\s*(\\d{1,19})(?:\\.(\\d{1,19}))?\\s*([KMGTPE]?B)\\s*", Pattern.CASE_INSENSITIVE);
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  private MediaSizes() {}

  static String human(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0 but was " + bytes);
    }
    if (bytes < 1000) {
      return bytes + "B";
    }
    BigDecimal value = BigDecimal.valueOf(bytes);
    for (int unit = 1; unit < UNITS.length; unit++) {
      value = value.divide(THOUSAND);
      BigDecimal rounded = value.setScale(value.compareTo(BigDecimal.TEN) < 0 ? 1 : 0, RoundingMode.HALF_UP);
      if (rounded.compareTo(THOUSAND) < 0 || unit == UNITS.length - 1) {
        return rounded.stripTrailingZeros().toPlainString() + UNITS[unit];
      }
    }
    throw new AssertionError("unreachable: " + bytes);
  }

  /** Whether {@code text} reads as a size. */
  static boolean isSize(String text) {
    return SIZE.matcher(text).matches();
  }

  /** The approximate byte count of a size such as {@code 2.4MB}, or empty when it is not one. */
  static OptionalLong parse(String text) {
    Matcher m = SIZE.matcher(text);
    if (!m.matches()) {
      return OptionalLong.empty();
    }
    BigDecimal number = new BigDecimal(m.group(1) + (m.group(2) == null ? "" : "." + m.group(2)));
    String unit = m.group(3).toUpperCase(Locale.ROOT);
    int power = 0;
    while (!UNITS[power].equals(unit)) {
      power++;
    }
    BigDecimal bytes = number.multiply(THOUSAND.pow(power)).setScale(0, RoundingMode.HALF_UP);
    return bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0
        ? OptionalLong.of(Long.MAX_VALUE)
        : OptionalLong.of(bytes.longValueExact());
  }
}
