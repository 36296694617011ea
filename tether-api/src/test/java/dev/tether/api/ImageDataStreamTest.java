package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ImageData#openStream()} over base64 text: decoded a chunk at a time, the same bytes as the JDK decoder. */
class ImageDataStreamTest {
  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] readAll(InputStream in, int step) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[step];
    for (int n; (n = in.read(buf, 0, step)) >= 0; ) {
      out.write(buf, 0, n);
    }
    return out.toByteArray();
  }

  @Test
  void openStream_decodesAsTheJdkDecoder_forAnyLengthPaddedOrNot_acrossChunkBoundaries() {
    // 16,384 characters a chunk: lengths up to 60,000 bytes cross up to five chunk boundaries.
    qt().withExamples(300).withFixedSeed(24L)
        .forAll(integers().between(0, 60_000), integers().between(1, 70_000), integers().between(0, 1))
        .checkAssert((n, step, padded) -> {
          byte[] expected = bytes(n, n);
          String text = Base64.getEncoder().encodeToString(expected);
          if (padded == 0) {
            text = text.replace("=", "");
          }
          try (InputStream in = ImageData.ofBase64(text).openStream()) {
            assertArrayEquals(expected, readAll(in, step), "length " + n + ", read step " + step);
          } catch (IOException e) {
            throw new AssertionError(e);
          }
        });
  }

  @Test
  void openStream_readsByteAtATimeAndReportsEnd() throws IOException {
    byte[] expected = bytes(40_000, 3);
    try (InputStream in = ImageData.ofBase64(Base64.getEncoder().encodeToString(expected)).openStream()) {
      for (byte b : expected) {
        assertEquals(b & 0xff, in.read());
      }
      assertEquals(-1, in.read());
      assertEquals(-1, in.read(new byte[4], 0, 4));
    }
  }

  @Test
  void openStream_ofEmptyText_isEmpty() throws IOException {
    try (InputStream in = ImageData.ofBase64("").openStream()) {
      assertEquals(-1, in.read());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"\u0141", "\u00e9", "-", "_", " ", "*", "=AAA"})
  void openStream_ofTextThatIsNotBase64_failsTheRead_earlyOrInTheLastChunk(String bad) {
    String good = Base64.getEncoder().encodeToString(bytes(30_000, 5)); // 40,000 characters
    for (int at : new int[] {4, 16_384 + 8, good.length() - 4}) {
      String text = good.substring(0, at) + bad + good.substring(at + bad.length());
      IOException e = assertThrows(IOException.class, () -> readAll(ImageData.ofBase64(text).openStream(), 8192),
          "'" + bad + "' at " + at);
      assertTrue(e.getMessage().contains("not base64"), e.getMessage());
    }
  }

  @Test
  void writeTo_writesTheDecodedBytes() throws IOException {
    byte[] expected = bytes(50_001, 9);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageData.ofBase64(Base64.getEncoder().encodeToString(expected)).writeTo(out);
    assertArrayEquals(expected, out.toByteArray());
  }
}
