package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.MediaType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.stream.Stream;

class BlobKeyTest {
  private static final String HEX = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

  @Test
  void forContent_isTheSha256OfTheBytesWithTheTypesExtension() {
    BlobKey key = BlobKey.forContent("abc".getBytes(StandardCharsets.US_ASCII), MediaType.JPEG);
    assertEquals(HEX, key.sha256Hex());
    assertEquals(HEX + ".jpg", key.fileName());
    assertEquals(HEX + ".jpg", key.toString());
  }

  @Test
  void parse_acceptsEachOfTheFourExtensions() {
    for (MediaType type : MediaType.values()) {
      BlobKey key = BlobKey.of(HEX + "." + type.extension());
      assertEquals(type, key.mediaType());
      assertEquals(HEX, key.sha256Hex());
    }
  }

  static Stream<String> hostileSpellings() {
    return Stream.of(
      "",
      "../" + HEX + ".png",
      "..%2f" + HEX + ".png",
      "%2e%2e%2f" + HEX.substring(9) + ".png",
      "/etc/passwd",
      "/" + HEX.substring(1) + ".png",
      "C:\\" + HEX.substring(3) + ".png",
      HEX.substring(0, 60) + "/../.png",
      HEX.substring(0, 63) + "\u0000.png",
      HEX + ".png\u0000",
      HEX + ".png\n",
      HEX + ".png/",
      HEX + ".png/..",
      "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD.png",
      "Ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.png",
      HEX + ".jpeg",
      HEX + ".PNG",
      HEX + ".bmp",
      HEX + ".",
      HEX,
      HEX + "0.png",
      HEX.substring(1) + ".png",
      HEX + "..png",
      HEX.substring(0, 63) + "g.png",
      HEX.substring(0, 63) + "\u0660.png"
    );
  }

  @ParameterizedTest
  @MethodSource("hostileSpellings")
  void parse_rejectsHostileOrNonCanonicalSpellings(String text) {
    assertEquals(Optional.empty(), BlobKey.parse(text));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BlobKey.of(text));
    assertTrue(e.getMessage().contains("not a blob key"), e.getMessage());
    assertTrue(e.getMessage().chars().noneMatch(c -> c == 0 || c == '\n'), "control characters are escaped");
  }

  @Test
  void parse_null_isEmpty() {
    assertEquals(Optional.empty(), BlobKey.parse(null));
  }

  @Test
  void constructor_rejectsUpperCaseHex() {
    assertThrows(IllegalArgumentException.class, () -> new BlobKey(HEX.toUpperCase(), MediaType.PNG));
  }

  @Property
  void fileName_parsesBackToTheSameKey(@ForAll @Size(32) byte[] digest, @ForAll MediaType type) {
    BlobKey key = BlobKey.ofDigest(digest, type);
    assertEquals(key, BlobKey.of(key.fileName()));
    assertTrue(key.matches(digest));
  }

  @Property
  void anyParsedKey_resolvesToAFileDirectlyInsideTheDirectory(@ForAll("keyLike") String text) {
    Path dir = Path.of("/blobs");
    BlobKey.parse(text).ifPresent(key -> {
      assertEquals(text, key.fileName());
      Path resolved = dir.resolve(key.fileName()).normalize();
      assertEquals(dir, resolved.getParent());
    });
  }

  /** Strings near the key format: right length, hex plus hostile characters, various extensions. */
  @Provide
  Arbitrary<String> keyLike() {
    Arbitrary<String> hex = Arbitraries.strings().withChars("0123456789abcdefABCDEF./%\u0000\\:").ofLength(64);
    Arbitrary<String> ext = Arbitraries.of("png", "jpg", "gif", "webp", "jpeg", "PNG", "", "png/..", "p\u0000g");
    return net.jqwik.api.Combinators.combine(hex, Arbitraries.of(".", "/", ""), ext).as((h, dot, e) -> h + dot + e);
  }
}
