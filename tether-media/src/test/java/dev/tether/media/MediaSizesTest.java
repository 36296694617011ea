package dev.tether.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MediaSizesTest {
  @ParameterizedTest
  @CsvSource({
      "0, 0B", "999, 999B", "1000, 1KB", "1049, 1KB", "1050, 1.1KB", "9949, 9.9KB", "9950, 10KB",
      "847000, 847KB", "999499, 999KB", "999500, 1MB", "2400000, 2.4MB", "2449999, 2.4MB", "2450000, 2.5MB",
      "1000000000, 1GB", "9223372036854775807, 9.2EB"})
  void human_usesDecimalUnitsWithOneDecimalBelowTen(long bytes, String expected) {
    assertEquals(expected, MediaSizes.human(bytes));
  }

  @ParameterizedTest
  @CsvSource({"2.4MB, 2400000", "847KB, 847000", "847kb, 847000", "12 B, 12", "1.5 GB, 1500000000"})
  void parse_readsApproximateBytes(String text, long bytes) {
    assertEquals(OptionalLong.of(bytes), MediaSizes.parse(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"12s", "MB", "1.MB", "-1KB", "1KiB", "", "1 2KB"})
  void parse_rejectsWhatIsNotASize(String text) {
    assertTrue(MediaSizes.parse(text).isEmpty(), text);
  }
}
