package dev.tether.media;

import dev.tether.images.ByteSizes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Human sizes for placeholders, in <em>decimal</em> units as the lazy-media spec's examples
 * ({@code 2.4MB}, {@code 847KB}) read: 1 KB = 1000 bytes, 1 MB = 1000 KB, and so on up to EB.
 * Printing is {@link ByteSizes#decimal}, which states the form.
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

  /** {@link ByteSizes#decimal}: {@code 9.3KB}, {@code 2MB}; throws for a negative count. */
  static String human(long bytes) {
    return ByteSizes.decimal(bytes);
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
