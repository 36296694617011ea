package dev.tether.sessions;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Parses the timestamps of session lines. {@link Instant#toString()} (what the codec writes)
 * is parsed by hand, several times faster than {@link Instant#parse}, which costs a noticeable
 * share of loading a long session; anything else falls back to {@code Instant.parse}.
 */
final class SessionTimestamps {
  private SessionTimestamps() {}

  /** @throws DateTimeException when {@code ts} is not an ISO-8601 instant */
  static Instant parse(String ts) {
    Instant fast = fastPath(ts);
    return fast != null ? fast : Instant.parse(ts);
  }

  /** {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, or null for any other spelling. */
  static Instant fastPath(String s) {
    int n = s.length();
    if (n < 20 || n > 30 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T'
        || s.charAt(13) != ':' || s.charAt(16) != ':' || s.charAt(n - 1) != 'Z') {
      return null;
    }
    int year = digits(s, 0, 4);
    int month = digits(s, 5, 7);
    int day = digits(s, 8, 10);
    int hour = digits(s, 11, 13);
    int minute = digits(s, 14, 16);
    int second = digits(s, 17, 19);
    if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23
        || minute < 0 || minute > 59 || second < 0 || second > 59) {
      return null;
    }
    int nanos = 0;
    if (n > 20) {
      if (s.charAt(19) != '.' || n == 21) {
        return null;
      }
      int fraction = digits(s, 20, n - 1);
      if (fraction < 0) {
        return null;
      }
      nanos = fraction;
      for (int i = n - 1 - 20; i < 9; i++) {
        nanos *= 10;
      }
    }
    try {
      long epochDay = LocalDate.of(year, month, day).toEpochDay();
      return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3600 + minute * 60 + second, nanos);
    } catch (DateTimeException e) {
      return null; // February 30 and the like: let Instant.parse give its own error
    }
  }

  /**
   * {@link #fastPath(String)} of the Latin-1 text {@code b[from, to)}, without making the String:
   * the same spelling accepted, the same instant, null for anything else.
   */
  static Instant fastPath(byte[] b, int from, int to) {
    return fastPath(b, from, to, null);
  }

  /**
   * {@link #fastPath(byte[], int, int)} remembering the last date read in {@code days} (the date's
   * ten bytes and its epoch day), since the turns of a session file mostly share their date.
   */
  static Instant fastPath(byte[] b, int from, int to, DayCache days) {
    int n = to - from;
    if (n < 20 || n > 30 || b[from + 4] != '-' || b[from + 7] != '-' || b[from + 10] != 'T'
        || b[from + 13] != ':' || b[from + 16] != ':' || b[to - 1] != 'Z') {
      return null;
    }
    long epochDay;
    if (days != null && days.holds(b, from)) {
      epochDay = days.epochDay;
    } else {
      int year = digits(b, from, from + 4);
      int month = digits(b, from + 5, from + 7);
      int day = digits(b, from + 8, from + 10);
      if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31) {
        return null;
      }
      try {
        epochDay = LocalDate.of(year, month, day).toEpochDay();
      } catch (DateTimeException e) {
        return null;
      }
      if (days != null) {
        days.remember(b, from, epochDay);
      }
    }
    int hour = digits(b, from + 11, from + 13);
    int minute = digits(b, from + 14, from + 16);
    int second = digits(b, from + 17, from + 19);
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
      return null;
    }
    int nanos = 0;
    if (n > 20) {
      if (b[from + 19] != '.' || n == 21) {
        return null;
      }
      int fraction = digits(b, from + 20, to - 1);
      if (fraction < 0) {
        return null;
      }
      nanos = fraction;
      for (int i = n - 1 - 20; i < 9; i++) {
        nanos *= 10;
      }
    }
    return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3600 + minute * 60 + second, nanos);
  }

  /** The last date {@link #fastPath(byte[], int, int, DayCache)} read: its ten bytes and its epoch day. Not thread-safe. */
  static final class DayCache {
    private static final VarHandle LONGS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private boolean set;
    private long head; // bytes 0-7 of the date
    private int tail; // bytes 8-9
    long epochDay;

    boolean holds(byte[] b, int from) {
      return set && (long) LONGS.get(b, from) == head && (b[from + 8] << 8 | b[from + 9]) == tail;
    }

    void remember(byte[] b, int from, long day) {
      set = true;
      head = (long) LONGS.get(b, from);
      tail = b[from + 8] << 8 | b[from + 9];
      epochDay = day;
    }
  }

  private static int digits(byte[] b, int from, int to) {
    int value = 0;
    for (int i = from; i < to; i++) {
      int c = b[i];
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /** The decimal value of {@code s[from, to)} (at most 9 digits), or -1 when it holds anything else. */
  private static int digits(String s, int from, int to) {
    int value = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
