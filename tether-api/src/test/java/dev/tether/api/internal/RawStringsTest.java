package dev.tether.api.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RawStringsTest {
  @Test
  void plainEnd_findsTheFirstQuoteBackslashOrNonAsciiByte_atAnyAlignment() {
    Random random = new Random(9);
    byte[] specials = {'"', '\\', (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = new byte[random.nextInt(40)];
      for (int i = 0; i < bytes.length; i++) {
        // mostly base64 symbols and bytes one off the specials, which a sloppy word test confuses
        int kind = random.nextInt(20);
        bytes[i] = kind == 0 ? specials[random.nextInt(specials.length)]
            : kind == 1 ? (byte) (specials[random.nextInt(2)] + (random.nextBoolean() ? 1 : -1))
            : kind == 2 ? (byte) random.nextInt(0x80)
            : (byte) "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".charAt(random.nextInt(65));
      }
      int from = bytes.length == 0 ? 0 : random.nextInt(bytes.length + 1);
      int limit = from + random.nextInt(bytes.length - from + 1);
      int expected = limit;
      for (int i = from; i < limit; i++) {
        if (bytes[i] == '"' || bytes[i] == '\\' || bytes[i] < 0) {
          expected = i;
          break;
        }
      }
      assertEquals(expected, RawStrings.plainEnd(bytes, from, limit), "round " + round);
    }
  }

  @Test
  void printableEnd_alsoStopsAtControlBytes_atAnyAlignment() {
    Random random = new Random(24);
    byte[] specials = {'"', '\\', (byte) 0x80, (byte) 0xC3, (byte) 0xFF, 0, '\n', 0x1F, 0x7F, 0x20};
    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = new byte[random.nextInt(40)];
      for (int i = 0; i < bytes.length; i++) {
        int kind = random.nextInt(20);
        bytes[i] = kind == 0 ? specials[random.nextInt(specials.length)]
            : kind == 1 ? (byte) random.nextInt(0x21)
            : kind == 2 ? (byte) random.nextInt(0x100)
            : (byte) "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".charAt(random.nextInt(65));
      }
      int from = bytes.length == 0 ? 0 : random.nextInt(bytes.length + 1);
      int limit = from + random.nextInt(bytes.length - from + 1);
      int expected = limit;
      for (int i = from; i < limit; i++) {
        if (bytes[i] == '"' || bytes[i] == '\\' || bytes[i] < 0x20) {
          expected = i;
          break;
        }
      }
      assertEquals(expected, RawStrings.printableEnd(bytes, from, limit), "round " + round);
    }
  }
}
