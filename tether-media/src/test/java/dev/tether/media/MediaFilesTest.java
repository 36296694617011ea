package dev.tether.media;

import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import dev.tether.media.internal.MediaFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

class MediaFilesTest {
  private static final Path DIR = Path.of("/srv/attachments");

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "screenshot.png|screenshot.png", "../../etc/passwd|passwd", "/etc/passwd|passwd",
      "..\\..\\win.ini|win.ini", "%2e%2e%2fsecret|_2e_2e_2fsecret", "..|__", ".|_", ".hidden|_hidden",
      "CON.txt|_CON.txt", "nul|_nul", "report (final).pdf|report (final).pdf", "a:b*c?.txt|a_b_c_.txt",
      "résumé.pdf|résumé.pdf", "trailing. . .|trailing", "dir/|file", "'  '|file", "' .x'|_x"})
  void sanitise_keepsOnlyAPlainName(String raw, String expected) {
    assertEquals(expected, MediaFiles.sanitise(raw));
  }

  @ParameterizedTest
  @ValueSource(strings = {"a\u0000b", "a\nb", "a\u007fb", "a\u202eb"})
  void sanitise_replacesControlAndFormatCharacters(String raw) {
    assertEquals("a_b", MediaFiles.sanitise(raw));
  }

  @ParameterizedTest
  @ValueSource(strings = {"../x", "a/b", "..", ".x", "a\\b", "", "a\u0000"})
  void resolveInside_rejectsAnythingButAPlainName(String name) {
    assertThrows(IllegalArgumentException.class, () -> MediaFiles.resolveInside(DIR, name));
  }

  @ParameterizedTest
  @CsvSource({"shot.png, 1, shot-1.png", "Makefile, 2, Makefile-2", "a.tar.gz, 1, a.tar-1.gz"})
  void withSuffix_goesBeforeTheExtension(String name, int n, String expected) {
    assertEquals(expected, MediaFiles.withSuffix(name, n));
  }

  @Test
  void sanitise_alwaysGivesAnIdempotentPlainNameInsideTheDirectory() {
    qt().withExamples(3000).forAll(hostileNames()).checkAssert(raw -> {
      String name = MediaFiles.sanitise(raw);
      assertFalse(name.isEmpty());
      assertFalse(name.startsWith("."), name);
      assertFalse(name.contains("/") || name.contains("\\") || name.contains("\0"), name);
      assertTrue(name.getBytes(StandardCharsets.UTF_8).length <= MediaFiles.MAX_NAME_BYTES, name);
      assertEquals(name, MediaFiles.sanitise(name));
      assertEquals(DIR, MediaFiles.resolveInside(DIR, name).getParent());
    });
  }

  private static Gen<String> hostileNames() {
    return Generate.oneOf(
        strings(chars('\u0000', '\uffff'), 0, 300),
        strings(charsOf("./\\%2e\u0000 :"), 0, 40),
        strings(charsOf("é😀a."), 150, 400));
  }
}
