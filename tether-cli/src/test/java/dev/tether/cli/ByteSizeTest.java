package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one size parser of the command line: examples, properties, and its errors. */
class ByteSizeTest {

  @Test
  void examples_plainBytesAndBinaryUnits() {
    assertEquals(0, ByteSize.parse("0"));
    assertEquals(1000, ByteSize.parse("1000"));
    assertEquals(64L << 10, ByteSize.parse("64KiB"));
    assertEquals(128L << 20, ByteSize.parse("128MiB"));
    assertEquals(3L << 30, ByteSize.parse("3GiB"));
    assertEquals(2L << 20, ByteSize.parse(" 2 mib "), "units are case-insensitive, spaces allowed");
    assertEquals(Long.MAX_VALUE, ByteSize.parse(Long.toString(Long.MAX_VALUE)));
    assertEquals((Long.MAX_VALUE >> 30) << 30, ByteSize.parse((Long.MAX_VALUE >> 30) + "GiB"));
  }

  @Test
  void badValues_areRefusedNamingTheValueAndTheForms() {
    for (String bad : List.of("", " ", "MiB", "-1", "1.5GiB", "1e6", "10MB", "10 M", "0x10", "1GiB2", "+5", "１２")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(bad), bad);
      assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("KiB, MiB or GiB"), e.getMessage());
    }
  }

  @Test
  void overflow_isRefusedAsTooLarge() {
    for (String big : List.of(((Long.MAX_VALUE >> 30) + 1) + "GiB", "9223372036854775808", (Long.MAX_VALUE >> 10) + 1 + "KiB")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(big), big);
      assertTrue(e.getMessage().contains("too large"), e.getMessage());
    }
  }

  @Test
  void property_unitIsTheRightPowerOfTwo() {
    qt().withExamples(2000).forAll(longs().between(0, Long.MAX_VALUE >> 30), integers().between(0, 3)).checkAssert((n, u) -> {
      String unit = new String[] {"", "KiB", "MiB", "GiB"}[u];
      assertEquals(n << (10 * u), ByteSize.parse(n + unit));
    });
  }

  @Test
  void property_formatThenParse_isIdentity() {
    qt().withExamples(2000).forAll(longs().between(0, Long.MAX_VALUE)).checkAssert(n -> assertEquals(n, ByteSize.parse(ByteSize.format(n))));
    qt().withExamples(500).forAll(longs().between(1, 1L << 32), integers().between(0, 3))
        .checkAssert((n, u) -> assertEquals(n << (10 * u), ByteSize.parse(ByteSize.format(n << (10 * u)))));
  }

  @Test
  void property_anyStringParsesOrIsRefusedWithIllegalArgument() {
    qt().withExamples(3000).forAll(strings().basicLatinAlphabet().ofLengthBetween(0, 24)).checkAssert(s -> {
      try {
        assertTrue(ByteSize.parse(s) >= 0, s);
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage().contains("size"), e.getMessage());
      }
    });
  }

  @Test
  void human_oneDecimalInTheLargestUnit() {
    assertEquals("256.0MiB", ByteSize.human(256L << 20));
    assertEquals("1.5GiB", ByteSize.human(3L << 29));
    assertEquals("512B", ByteSize.human(512));
  }
}
