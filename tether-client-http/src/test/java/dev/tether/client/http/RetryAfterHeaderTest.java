package dev.tether.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.strings;

import org.junit.jupiter.api.Test;

/**
 * {@code Retry-After} as the client reads it from a host it does not trust: delta-seconds only,
 * capped at a day; anything else (an HTTP date, a negative or fractional number, junk, a number too
 * long to parse) is "none named", which the retry takes as 1 s.
 */
class RetryAfterHeaderTest {
  @Test
  void deltaSeconds_areRead_andCappedAtADay() {
    assertEquals(0, HttpTransport.retryAfterSeconds("0"));
    assertEquals(5, HttpTransport.retryAfterSeconds(" 5 "));
    assertEquals(3600, HttpTransport.retryAfterSeconds("3600"));
    assertEquals(86_400, HttpTransport.retryAfterSeconds("999999999"));
  }

  @Test
  void anythingElse_isNone() {
    for (String bad : new String[] {null, "", " ", "-1", "1.5", "+3", "Wed, 21 Oct 2015 07:28:00 GMT", "5s", "0x10",
        "99999999999999999999", "٣"}) {
      assertEquals(-1, HttpTransport.retryAfterSeconds(bad), String.valueOf(bad));
    }
  }

  @Test
  void anyString_isReadWithoutAFailure_andNeverAboveADay() {
    qt().withExamples(2000).forAll(strings().allPossible().ofLengthBetween(0, 20)).checkAssert(s -> {
      long v = HttpTransport.retryAfterSeconds(s);
      assertEquals(true, v == -1 || (v >= 0 && v <= 86_400), s + " -> " + v);
    });
  }
}
