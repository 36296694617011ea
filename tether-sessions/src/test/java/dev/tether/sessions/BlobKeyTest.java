package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.tether.api.MediaType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

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

  @Test
  void fileName_parsesBackToTheSameKey() {
    Gen<byte[]> digests = Generate.byteArrays(integers().between(32, 32), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0));
    qt().withExamples(1000).forAll(digests, arbitrary().enumValues(MediaType.class)).checkAssert((digest, type) -> {
      BlobKey key = BlobKey.ofDigest(digest, type);
      assertEquals(key, BlobKey.of(key.fileName()));
      assertTrue(key.matches(digest));
    });
  }

  @Test
  void anyParsedKey_resolvesToAFileDirectlyInsideTheDirectory() {
    Path dir = Path.of("/blobs");
    qt().withExamples(1000).forAll(keyLike()).checkAssert(text -> BlobKey.parse(text).ifPresent(key -> {
      assertEquals(text, key.fileName());
      Path resolved = dir.resolve(key.fileName()).normalize();
      assertEquals(dir, resolved.getParent());
    }));
  }

  /**
   * Strings near the key format: right length, hex plus hostile characters, various extensions.
   * Half the draws take each of the 64 characters uniformly from the whole alphabet, as before; a
   * uniform draw from 26 characters almost never yields a string that parses, so the other half are
   * lower-case hex with a hostile character from the same alphabet in about one place in 60: keys
   * that parse only if a hostile character slips through.
   */
  private static Gen<String> keyLike() {
    String hostile = "ABCDEF./%\u0000\\:";
    Gen<String> hex = Generate.oneOf(
        strings(charsOf("0123456789abcdef" + hostile), 64, 64),
        strings(Generate.frequency(Pair.of(60, charsOf("0123456789abcdef")), Pair.of(1, charsOf(hostile))), 64, 64));
    Gen<String> ext = arbitrary().pick("png", "jpg", "gif", "webp", "jpeg", "PNG", "", "png/..", "p\u0000g");
    return hex.zip(arbitrary().pick(".", "/", ""), ext, (h, dot, e) -> h + dot + e);
  }
}
