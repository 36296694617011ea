package dev.tether.images;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Byte counts for people to read: the one home of every size format tether prints. Each method is
 * one form, named for how it reads, and each has its own readers; a form is never changed to match
 * another, because its text is asserted in tests, placeholders or docs.
 *
 * <table>
 *   <caption>The forms</caption>
 *   <tr><th>method</th><th>units</th><th>examples</th><th>printed by</th></tr>
 *   <tr><td>{@link #decimal}</td><td>1000</td><td>{@code 999B 9.3KB 847KB 2MB 9.2EB}</td>
 *       <td>lazy-media placeholders</td></tr>
 *   <tr><td>{@link #binaryCompact}</td><td>1024</td><td>{@code 512B 1.0KiB 256.0MiB 1.5GiB}</td>
 *       <td>{@code tether serve}'s memory line</td></tr>
 *   <tr><td>{@link #binaryExact}</td><td>1024</td>
 *       <td>{@code 5 bytes}, {@code 2 KiB}, {@code 2.0 KiB (2000 bytes)}, {@code 10 MiB},
 *       {@code 14.31 MiB (15000000 bytes)}</td><td>the frame validator's errors</td></tr>
 *   <tr><td>{@link #binaryWithBytes}</td><td>1024</td>
 *       <td>{@code 5 bytes}, {@code 1.0 KiB (1024 bytes)}, {@code 10.00 MiB (10485760 bytes)}</td>
 *       <td>the coven bridge's refusals</td></tr>
 *   <tr><td>{@link #binaryRounded}</td><td>1024</td><td>{@code 5 bytes 1.5 KiB 10.0 MiB}</td>
 *       <td>the Telegram bridge's refusals</td></tr>
 * </table>
 *
 * <p>All binary forms use {@link Locale#ROOT} (a dot, never a comma) and print a negative count
 * as given ({@code -5 bytes}); only {@link #decimal} rejects it. Stateless and thread-safe.
 */
public final class ByteSizes {
  private static final String[] DECIMAL_UNITS = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
  private static final String[] BINARY_UNITS = {"KiB", "MiB", "GiB"};
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
  private static final long KIB = 1024;
  private static final long MIB = 1024 * 1024;

  private ByteSizes() {}

  /**
   * Decimal units as the lazy-media spec's examples read ({@code 2.4MB}, {@code 847KB}):
   * 1 KB = 1000 bytes, up to EB. Below 1000 bytes the exact count and {@code B}; otherwise the
   * largest unit that keeps the value at least 1, with one decimal below 10 and none from 10 on,
   * rounded half-up, a trailing {@code .0} dropped ({@code 2000000} is {@code 2MB}). A value that
   * rounds up to 1000 moves to the next unit ({@code 999500} is {@code 1MB}, never {@code 1000KB}).
   *
   * @throws IllegalArgumentException when {@code bytes} is negative
   */
  public static String decimal(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0 but was " + bytes);
    }
    if (bytes < 1000) {
      return bytes + "B";
    }
    BigDecimal value = BigDecimal.valueOf(bytes);
    for (int unit = 1; unit < DECIMAL_UNITS.length; unit++) {
      value = value.divide(THOUSAND);
      BigDecimal rounded = value.setScale(value.compareTo(BigDecimal.TEN) < 0 ? 1 : 0, RoundingMode.HALF_UP);
      if (rounded.compareTo(THOUSAND) < 0 || unit == DECIMAL_UNITS.length - 1) {
        return rounded.stripTrailingZeros().toPlainString() + DECIMAL_UNITS[unit];
      }
    }
    throw new AssertionError("unreachable: " + bytes);
  }

  /**
   * One decimal in the largest binary unit (KiB, MiB, GiB) not above the value, no space
   * ({@code 1.5GiB}, {@code 256.0MiB}); below 1 KiB the count and {@code B} ({@code 512B}).
   */
  public static String binaryCompact(long bytes) {
    for (int i = BINARY_UNITS.length - 1; i >= 0; i--) {
      long unit = 1L << (10 * (i + 1));
      if (bytes >= unit) {
        return String.format(Locale.ROOT, "%.1f%s", (double) bytes / unit, BINARY_UNITS[i]);
      }
    }
    return bytes + "B";
  }

  /**
   * KiB or MiB with the exact count whenever the unit rounds: {@code 10 MiB} for a whole number
   * of MiB, otherwise {@code 14.31 MiB (15000000 bytes)} (one decimal for KiB, two for MiB);
   * below 1 KiB {@code 5 bytes}. Two different counts never read the same, so a size one byte
   * over a limit never reads like the limit.
   */
  public static String binaryExact(long bytes) {
    if (bytes < KIB) {
      return bytes + " bytes";
    }
    if (bytes < MIB) {
      return bytes % KIB == 0
          ? (bytes >> 10) + " KiB"
          : String.format(Locale.ROOT, "%.1f KiB (%d bytes)", bytes / 1024.0, bytes);
    }
    if (bytes % MIB == 0) {
      return (bytes >> 20) + " MiB";
    }
    return String.format(Locale.ROOT, "%.2f MiB (%d bytes)", bytes / (1024.0 * 1024), bytes);
  }

  /**
   * KiB or MiB always followed by the exact count: {@code 1.0 KiB (1024 bytes)},
   * {@code 10.00 MiB (10485760 bytes)} (one decimal for KiB, two for MiB); below 1 KiB
   * {@code 5 bytes}. Like {@link #binaryExact} but without its whole-unit shorthand.
   */
  public static String binaryWithBytes(long bytes) {
    if (bytes < KIB) {
      return bytes + " bytes";
    }
    if (bytes < MIB) {
      return String.format(Locale.ROOT, "%.1f KiB (%d bytes)", bytes / 1024.0, bytes);
    }
    return String.format(Locale.ROOT, "%.2f MiB (%d bytes)", bytes / (1024.0 * 1024), bytes);
  }

  /**
   * KiB or MiB with one decimal and a space, no exact count: {@code 1.5 KiB}, {@code 10.0 MiB}
   * (also above 1 GiB: {@code 2048.0 MiB}); below 1 KiB {@code 5 bytes}.
   */
  public static String binaryRounded(long bytes) {
    if (bytes >= MIB) {
      return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) MIB);
    }
    if (bytes >= KIB) {
      return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }
    return bytes + " bytes";
  }
}
