package dev.tether.benchmarks;

import dev.tether.api.RawJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Where each image's base64 sits in a payload's bytes, found once in set-up, for the floor baselines. */
final class BenchImages {
  private static final byte[] DATA = "\"data\":\"".getBytes(StandardCharsets.US_ASCII);

  /** The base64 of one image: {@code array[offset, offset + length)}. */
  record Span(byte[] array, int offset, int length) {}

  private BenchImages() {}

  /** The {@code "data":"..."} values of {@code json}, in order (benchmark fixtures only: no escapes). */
  static List<Span> dataSpans(RawJson json) {
    byte[] bytes = json.toByteArray();
    List<Span> spans = new ArrayList<>();
    for (int i = 0; i + DATA.length <= bytes.length; i++) {
      if (matches(bytes, i)) {
        int start = i + DATA.length;
        int end = start;
        while (bytes[end] != '"') {
          end++;
        }
        spans.add(new Span(bytes, start, end - start));
        i = end;
      }
    }
    return spans;
  }

  private static boolean matches(byte[] bytes, int at) {
    for (int j = 0; j < DATA.length; j++) {
      if (bytes[at + j] != DATA[j]) {
        return false;
      }
    }
    return true;
  }
}
