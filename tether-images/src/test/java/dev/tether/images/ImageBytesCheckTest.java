package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.api.ErrorCode;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * {@link Images#check(MediaType, byte[], int, int, Limits)}, the check of base64 where it sits in a
 * payload's bytes, gives exactly the verdict of {@link Images#of(MediaType, String, Limits)} for the
 * same text: the same decoded size, or the same code and the same message.
 */
class ImageBytesCheckTest {
  private static final Limits SMALL_LIMITS = Limits.builder().maxImageBytes(600).build();

  /** The verdict of one check: the decoded size, or the error's code and message. */
  private static String verdict(Runnable call, long[] size) {
    try {
      call.run();
      return "ok " + size[0];
    } catch (TetherException e) {
      return e.code() + ": " + e.getMessage();
    }
  }

  private static void assertSameVerdict(MediaType type, String text, Limits limits) {
    byte[] framed = ("{\"data\":\"" + text + "\"}").getBytes(StandardCharsets.ISO_8859_1);
    long[] fromBytes = new long[1];
    long[] fromString = new long[1];
    String expected = verdict(() -> fromString[0] = Images.of(type, text, limits).decodedSize(), fromString);
    String actual = verdict(() -> fromBytes[0] = Images.check(type, framed, 9, text.length(), limits), fromBytes);
    assertEquals(expected, actual, "for " + type + " " + text);
  }

  /** Pieces a hostile or broken base64 text is made of: real images' base64, and every kind of wrong. */
  private static Gen<String> texts() {
    List<String> pieces = List.of(SampleImages.smallBase64(MediaType.PNG), SampleImages.smallBase64(MediaType.JPEG),
        SampleImages.unpadded(SampleImages.smallBase64(MediaType.GIF)), SampleImages.smallBase64(MediaType.WEBP),
        "AAAA", "A", "=", "==", "-", "_", " ", "\n", "data:", "data:image/png;base64,", "\u00e9", "\u00ff", "\u0080",
        "iVBORw0KGgo", "/9j/", "R0lGODlh", "UklGR");
    return lists().of(arbitrary().pick(pieces)).ofSizeBetween(0, 5).map(l -> String.join("", l));
  }

  @Test
  void bytesAndStringGiveTheSameVerdict_forAnyMixOfValidAndHostileText() {
    qt().withFixedSeed(24L).withExamples(3000)
        .forAll(arbitrary().enumValues(MediaType.class), texts(), integers().between(0, 1))
        .checkAssert((type, text, small) -> assertSameVerdict(type, text, small == 1 ? SMALL_LIMITS : Limits.defaults()));
  }

  @Test
  void hostileText_getsTheCodeOfItsFirstProblem() {
    String png = SampleImages.smallBase64(MediaType.PNG);
    byte[] bytes = ("xx" + png.replace('+', '-') + "-").getBytes(StandardCharsets.ISO_8859_1);
    TetherException urlSafe = assertThrows(TetherException.class,
        () -> Images.check(MediaType.PNG, bytes, 2, bytes.length - 2, Limits.defaults()));
    assertEquals(ErrorCode.INVALID_BASE64, urlSafe.code());
    byte[] jpeg = SampleImages.smallBase64(MediaType.JPEG).getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, assertThrows(TetherException.class,
        () -> Images.check(MediaType.PNG, jpeg, 0, jpeg.length, Limits.defaults())).code());
    byte[] big = java.util.Base64.getEncoder().encode(SampleImages.ofSize(MediaType.PNG, SampleImages.small(MediaType.PNG).length + 601));
    assertEquals(ErrorCode.IMAGE_TOO_LARGE, assertThrows(TetherException.class,
        () -> Images.check(MediaType.PNG, big, 0, big.length, SMALL_LIMITS)).code());
    byte[] uri = ("data:image/png;base64," + png).getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(ErrorCode.DATA_URI_NOT_ALLOWED, assertThrows(TetherException.class,
        () -> Images.check(MediaType.PNG, uri, 0, uri.length, Limits.defaults())).code());
    assertThrows(IndexOutOfBoundsException.class, () -> Images.check(MediaType.PNG, jpeg, 1, jpeg.length, Limits.defaults()));
  }
}
