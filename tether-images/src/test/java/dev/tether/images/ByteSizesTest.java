package dev.tether.images;

import static dev.tether.api.testing.QtGens.longsAcrossMagnitudes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The five size forms: an examples table per form (the texts tests, placeholders and docs assert
 * elsewhere), and QuickTheories properties over every magnitude: each form reads back to within
 * its rounding, never goes down as the count goes up, and the exact forms never print two counts
 * alike.
 */
class ByteSizesTest {
  private static final Pattern NUMBER_UNIT = Pattern.compile("(\\d+(?:\\.\\d+)?) ?(B|bytes|[KMGTPE]B|[KMG]iB)(?: \\((\\d+) bytes\\))?");

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "0 | 0B | 0B | 0 bytes | 0 bytes | 0 bytes",
      "999 | 999B | 999B | 999 bytes | 999 bytes | 999 bytes",
      "1000 | 1KB | 1000B | 1000 bytes | 1000 bytes | 1000 bytes",
      "1024 | 1KB | 1.0KiB | 1 KiB | 1.0 KiB (1024 bytes) | 1.0 KiB",
      "1536 | 1.5KB | 1.5KiB | 1.5 KiB (1536 bytes) | 1.5 KiB (1536 bytes) | 1.5 KiB",
      "2000 | 2KB | 2.0KiB | 2.0 KiB (2000 bytes) | 2.0 KiB (2000 bytes) | 2.0 KiB",
      "9300 | 9.3KB | 9.1KiB | 9.1 KiB (9300 bytes) | 9.1 KiB (9300 bytes) | 9.1 KiB",
      "999500 | 1MB | 976.1KiB | 976.1 KiB (999500 bytes) | 976.1 KiB (999500 bytes) | 976.1 KiB",
      "10485760 | 10MB | 10.0MiB | 10 MiB | 10.00 MiB (10485760 bytes) | 10.0 MiB",
      "10485761 | 10MB | 10.0MiB | 10.00 MiB (10485761 bytes) | 10.00 MiB (10485761 bytes) | 10.0 MiB",
      "15000000 | 15MB | 14.3MiB | 14.31 MiB (15000000 bytes) | 14.31 MiB (15000000 bytes) | 14.3 MiB",
      "268435456 | 268MB | 256.0MiB | 256 MiB | 256.00 MiB (268435456 bytes) | 256.0 MiB",
      "1610612736 | 1.6GB | 1.5GiB | 1536 MiB | 1536.00 MiB (1610612736 bytes) | 1536.0 MiB",
      "9223372036854775807 | 9.2EB | 8589934592.0GiB | 8796093022208.00 MiB (9223372036854775807 bytes)"
          + " | 8796093022208.00 MiB (9223372036854775807 bytes) | 8796093022208.0 MiB"})
  void eachForm_readsAsItsUsersPrintIt(long bytes, String decimal, String compact, String exact, String withBytes,
      String rounded) {
    assertEquals(decimal, ByteSizes.decimal(bytes), "decimal");
    assertEquals(compact, ByteSizes.binaryCompact(bytes), "binaryCompact");
    assertEquals(exact, ByteSizes.binaryExact(bytes), "binaryExact");
    assertEquals(withBytes, ByteSizes.binaryWithBytes(bytes), "binaryWithBytes");
    assertEquals(rounded, ByteSizes.binaryRounded(bytes), "binaryRounded");
  }

  @Test
  void decimal_rejectsANegativeCountButBinaryFormsPrintIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteSizes.decimal(-1));
    assertEquals("bytes must be >= 0 but was -1", e.getMessage());
    assertEquals("-5B", ByteSizes.binaryCompact(-5));
    assertEquals("-5 bytes", ByteSizes.binaryExact(-5));
    assertEquals("-5 bytes", ByteSizes.binaryWithBytes(-5));
    assertEquals("-5 bytes", ByteSizes.binaryRounded(-5));
  }

  @Test
  void everyForm_readsBackWithinItsRounding() {
    List<LongFunction<String>> forms = List.of(ByteSizes::decimal, ByteSizes::binaryCompact, ByteSizes::binaryExact,
        ByteSizes::binaryWithBytes, ByteSizes::binaryRounded);
    qt().withExamples(2000).forAll(longsAcrossMagnitudes(0, Long.MAX_VALUE)).checkAssert(bytes -> {
      for (LongFunction<String> form : forms) {
        String text = form.apply(bytes);
        double back = approximate(text);
        // One significant decimal below 10 (decimal form) is the coarsest rounding: at most 5% off.
        assertTrue(Math.abs(back - bytes) <= bytes * 0.05 + 1, bytes + " -> " + text + " -> " + back);
      }
    });
  }

  @Test
  void everyForm_neverGoesDownAsTheCountGoesUp() {
    List<LongFunction<String>> forms = List.of(ByteSizes::decimal, ByteSizes::binaryCompact, ByteSizes::binaryExact,
        ByteSizes::binaryWithBytes, ByteSizes::binaryRounded);
    qt().withExamples(2000).forAll(longsAcrossMagnitudes(0, Long.MAX_VALUE - 1), longsAcrossMagnitudes(0, 1 << 20))
        .checkAssert((bytes, step) -> {
          long more = bytes + Math.min(step, Long.MAX_VALUE - bytes);
          for (LongFunction<String> form : forms) {
            assertTrue(approximate(form.apply(bytes)) <= approximate(form.apply(more)),
                form.apply(bytes) + " > " + form.apply(more));
          }
        });
  }

  @Test
  void exactForms_printTwoDifferentCountsDifferently() {
    qt().withExamples(2000).forAll(longsAcrossMagnitudes(0, Long.MAX_VALUE - 1)).checkAssert(bytes -> {
      assertNotEquals(ByteSizes.binaryExact(bytes), ByteSizes.binaryExact(bytes + 1), "binaryExact at " + bytes);
      assertNotEquals(ByteSizes.binaryWithBytes(bytes), ByteSizes.binaryWithBytes(bytes + 1), "binaryWithBytes at " + bytes);
      String text = ByteSizes.binaryExact(bytes);
      assertTrue(text.endsWith(" bytes)") || text.endsWith(" bytes") || exactly(text) == bytes, text);
    });
  }

  /** The count a text stands for: the exact count when it gives one, else number times unit. */
  private static double approximate(String text) {
    Matcher m = NUMBER_UNIT.matcher(text);
    assertTrue(m.matches(), text);
    if (m.group(3) != null) {
      return Long.parseLong(m.group(3));
    }
    return new BigDecimal(m.group(1)).multiply(unit(m.group(2))).doubleValue();
  }

  private static long exactly(String text) {
    Matcher m = NUMBER_UNIT.matcher(text);
    assertTrue(m.matches(), text);
    return new BigDecimal(m.group(1)).multiply(unit(m.group(2))).longValueExact();
  }

  private static BigDecimal unit(String unit) {
    return switch (unit.toUpperCase(Locale.ROOT)) {
      case "B", "BYTES" -> BigDecimal.ONE;
      case "KB" -> BigDecimal.TEN.pow(3);
      case "MB" -> BigDecimal.TEN.pow(6);
      case "GB" -> BigDecimal.TEN.pow(9);
      case "TB" -> BigDecimal.TEN.pow(12);
      case "PB" -> BigDecimal.TEN.pow(15);
      case "EB" -> BigDecimal.TEN.pow(18);
      case "KIB" -> BigDecimal.valueOf(1L << 10);
      case "MIB" -> BigDecimal.valueOf(1L << 20);
      case "GIB" -> BigDecimal.valueOf(1L << 30);
      default -> throw new AssertionError(unit);
    };
  }
}
