package dev.tether.server;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A token-bucket rate: {@code perSecond} requests per second on average, up to {@code burst} at
 * once after a quiet spell. {@link #OFF} (a rate of 0) admits everything. Immutable.
 *
 * <p>What {@link TetherServer.Builder#rateLimitPerInstance} and
 * {@link TetherServer.Builder#rateLimitPerToken} take, and what {@code tether serve
 * --rate-limit-instance} and {@code --rate-limit-token} parse with {@link #parse(String)}: {@code 0}
 * (off), {@code 200/s}, {@code 30/m}, {@code 100/h}, optionally with {@code ,burst=N}
 * ({@code 200/s,burst=400}). Without a burst it is twice the rate per second, at least 1.
 *
 * @param perSecond the sustained rate, 0 (off) or from one per hour to {@value #MAX_PER_SECOND} per second
 * @param burst how many are admitted at once after a quiet spell: 0 when off, else 1 to {@value #MAX_BURST}
 */
public record RateLimit(double perSecond, int burst) {
  /** The highest rate: one request per microsecond. */
  public static final double MAX_PER_SECOND = 1_000_000;
  /** The largest burst. */
  public static final int MAX_BURST = 1_000_000;
  /** The lowest rate other than off: one request per hour. */
  public static final double MIN_PER_SECOND = 1.0 / 3600;

  /** No limit. */
  public static final RateLimit OFF = new RateLimit(0, 0);
  /**
   * The default per instance: 200 requests a second, bursts of 400. Far above what a chat or an
   * agent's streamed deltas send; it stops a flood, it does not shape traffic.
   */
  public static final RateLimit DEFAULT_PER_INSTANCE = new RateLimit(200, 400);
  /**
   * The default per instance token: 100 requests a second, bursts of 200, half an instance's, so one
   * token cannot take all of its instance's rate from the bridges and the host.
   */
  public static final RateLimit DEFAULT_PER_TOKEN = new RateLimit(100, 200);

  private static final Pattern SYNTAX =
      Pattern.compile("([0-9]+(?:\\.[0-9]+)?)/([smh])(?:,burst=([0-9]+))?");

  /** @throws IllegalArgumentException naming the value out of range */
  public RateLimit {
    if (Double.isNaN(perSecond) || perSecond < 0 || perSecond > MAX_PER_SECOND
        || (perSecond > 0 && perSecond < MIN_PER_SECOND)) {
      throw new IllegalArgumentException("perSecond must be 0 (off) or between 1/3600 and " + (long) MAX_PER_SECOND
          + " but was " + perSecond);
    }
    if (perSecond == 0 ? burst != 0 : burst < 1 || burst > MAX_BURST) {
      throw new IllegalArgumentException("burst must be " + (perSecond == 0 ? "0 when the rate is off" : "between 1 and "
          + MAX_BURST) + " but was " + burst);
    }
  }

  /** {@code perSecond} with the default burst: twice the rate per second, at least 1 ({@link #OFF} for 0). */
  public static RateLimit perSecond(double perSecond) {
    return perSecond == 0 ? OFF : new RateLimit(perSecond, defaultBurst(perSecond));
  }

  /**
   * Reads {@code 0}, {@code N/s}, {@code N/m} or {@code N/h}, optionally followed by
   * {@code ,burst=N}; N may have a decimal fraction.
   *
   * @throws IllegalArgumentException with one sentence naming the value and the syntax
   */
  public static RateLimit parse(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    if (t.equals("0") || t.equals("off")) {
      return OFF;
    }
    Matcher m = SYNTAX.matcher(t);
    String why = "";
    if (m.matches() && m.group(1).length() <= 12 && (m.group(3) == null || m.group(3).length() <= 9)) {
      double n = new BigDecimal(m.group(1)).doubleValue();
      double rate = switch (m.group(2)) {
        case "s" -> n;
        case "m" -> n / 60;
        default -> n / 3600;
      };
      if (rate == 0) {
        return OFF;
      }
      try {
        return m.group(3) == null ? perSecond(rate) : new RateLimit(rate, Integer.parseInt(m.group(3)));
      } catch (IllegalArgumentException e) {
        why = " (" + e.getMessage() + ")";
      }
    }
    throw new IllegalArgumentException("a rate limit is 0 (off) or like 200/s, 30/m, 100/h, optionally with ,burst=N"
        + " (200/s,burst=400), but was '" + text + "'" + why);
  }

  /** Whether this admits everything. */
  public boolean off() {
    return perSecond == 0;
  }

  /** For a log line: {@code 200/s (burst 400)}, or {@code off}. */
  public String describe() {
    if (off()) {
      return "off";
    }
    String rate = whole(perSecond) || perSecond >= 1 ? number(perSecond) + "/s"
        : whole(perSecond * 60) ? number(perSecond * 60) + "/m" : number(perSecond * 3600) + "/h";
    return rate + " (burst " + burst + ")";
  }

  private static boolean whole(double d) {
    return Math.abs(d - Math.rint(d)) < 1e-9 * Math.max(1, d);
  }

  private static String number(double d) {
    return whole(d) ? Long.toString(Math.round(d))
        : BigDecimal.valueOf(d).round(new MathContext(6)).stripTrailingZeros().toPlainString();
  }

  private static int defaultBurst(double perSecond) {
    return (int) Math.max(1, Math.min(MAX_BURST, Math.ceil(2 * perSecond)));
  }
}
