package dev.tether.media;

import static dev.tether.api.testing.QtGens.anyOf;
import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import dev.tether.media.internal.MediaFiles;
import dev.tether.sessions.ConfinedDirectory;
import org.junit.jupiter.api.Test;

/**
 * Any client file name becomes one plain component the confined directory accepts: never empty,
 * {@code .} or {@code ..}, no separator or NUL, no leading dot (the manifest and temp files start
 * with one, so no upload can take their names), and sanitising twice changes nothing.
 */
class AttachmentNamePropertyTest {
  @Test
  void anyClientName_sanitisesToOnePlainComponentWithoutALeadingDot() {
    var hostile = anyOf(charsOf("./\\\u0000:%~ \t\n*?<>|\"'"), chars('a', 'e'), chars('\u00e0', '\u00e9'),
        chars('\u4e00', '\u4e03'), chars('\ud800', '\ud801'), chars('\u0001', '\u001f'));
    qt().withExamples(5_000).forAll(strings(hostile, 0, 300)).checkAssert(raw -> {
      String name = MediaFiles.sanitise(raw);
      assertTrue(ConfinedDirectory.isComponent(name), "'" + raw + "' -> '" + name + "'");
      assertFalse(name.startsWith("."), name);
      assertEquals(name, MediaFiles.sanitise(name), "idempotent");
      assertEquals(name, MediaFiles.requirePlain(name));
    });
  }
}
