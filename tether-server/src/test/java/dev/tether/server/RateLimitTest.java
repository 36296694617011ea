package dev.tether.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The rate syntax of {@code --rate-limit-instance} and {@code --rate-limit-token}, and its bounds. */
class RateLimitTest {
  @Test
  void parse_readsRatesPerSecondMinuteAndHour_withAndWithoutBurst() {
    assertEquals(RateLimit.OFF, RateLimit.parse("0"));
    assertEquals(RateLimit.OFF, RateLimit.parse("off"));
    assertEquals(RateLimit.OFF, RateLimit.parse("0/s"));
    assertEquals(new RateLimit(200, 400), RateLimit.parse("200/s"));
    assertEquals(new RateLimit(200, 50), RateLimit.parse("200/s,burst=50"));
    assertEquals(new RateLimit(0.5, 1), RateLimit.parse("30/m"));
    assertEquals(new RateLimit(2.5, 5), RateLimit.parse(" 2.5/S "));
    assertEquals(new RateLimit(1.0 / 36, 7), RateLimit.parse("100/h,burst=7"));
    assertEquals("200/s (burst 400)", RateLimit.parse("200/s").describe());
    assertEquals("30/m (burst 1)", RateLimit.parse("30/m").describe());
    assertEquals("100/h (burst 1)", RateLimit.parse("100/h").describe());
    assertEquals("off", RateLimit.OFF.describe());
    assertTrue(RateLimit.OFF.off());
    assertFalse(RateLimit.DEFAULT_PER_INSTANCE.off());
  }

  @Test
  void parse_refusesMalformedValues_inOneSentenceNamingThem() {
    for (String bad : new String[] {"", "fast", "200", "-1/s", "200/d", "200/s,burst=", "200/s,burst=0", "200/s,burst=-3",
        "1e9/s", "2000000/s", "0.1/h", "200/s,burst=2000000", "200/s;burst=4", "99999999999999999/s", "200/s,burst=99999999999"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RateLimit.parse(bad), bad);
      assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("200/s"), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> RateLimit.parse(null));
  }

  @Test
  void constructor_failsFastNamingTheSetting() {
    assertEquals("burst must be 0 when the rate is off but was 3",
        assertThrows(IllegalArgumentException.class, () -> new RateLimit(0, 3)).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new RateLimit(Double.NaN, 1)).getMessage().startsWith("perSecond"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new RateLimit(10, 0)).getMessage().startsWith("burst"));
    assertEquals(new RateLimit(0.25, 1), RateLimit.perSecond(0.25));
    assertEquals(RateLimit.OFF, RateLimit.perSecond(0));
  }
}
