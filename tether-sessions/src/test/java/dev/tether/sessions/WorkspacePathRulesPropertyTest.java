package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import static dev.tether.api.testing.QtGens.anyOf;
import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;

/**
 * The path rules of the one way into a workspace, on real files: a name is used if and only if it
 * is one plain component ({@link ConfinedDirectory#isComponent}), and then it lands directly in the
 * opened directory, nowhere else; a session's file-system name and a blob key are always such a
 * component (no {@code /}, never {@code .} or {@code ..}, no leading dot); anything else is a
 * caller mistake before any file is touched.
 */
class WorkspacePathRulesPropertyTest {
  private static final Pattern BLOB_KEY = Pattern.compile("[0-9a-f]{64}\\.(png|jpg|gif|webp)");
  private static final AtomicInteger RUN = new AtomicInteger();
  private static final Gen<Character> HOSTILE = anyOf(charsOf("./\\\u0000:%~ \t\n*?<>|\"'"), chars('a', 'c'),
      chars('\u00e0', '\u00e2'), chars('\u4e00', '\u4e02'), chars('\ud800', '\ud801'));

  @TempDir static Path tmp;

  @Test
  void aNameIsUsedIffItIsOneComponent_andThenLandsDirectlyInTheDirectory() {
    qt().withExamples(400).forAll(strings(HOSTILE, 0, 30)).checkAssert(WorkspacePathRulesPropertyTest::check);
  }

  private static void check(String name) {
      try {
        Path example = Files.createDirectories(tmp.resolve("r" + RUN.incrementAndGet()));
        Path root = Files.createDirectories(example.resolve("root"));
        try (ConfinedDirectory dir = ConfinedDirectory.open(root)) {
          if (!ConfinedDirectory.isComponent(name)) {
            assertThrows(IllegalArgumentException.class, () -> dir.write(name, new byte[] {1}), name);
            assertThrows(IllegalArgumentException.class, () -> dir.createDirectory(name), name);
            assertEquals(List.of(), dir.list(), "nothing was touched for '" + name + "'");
            return;
          }
          assertFalse(name.isEmpty() || name.equals(".") || name.equals("..") || name.contains("/"), name);
          dir.write(name, name.getBytes(StandardCharsets.UTF_8));
          // Exactly one entry: the name itself (spelt in the platform's file-name encoding, which may
          // turn what it cannot encode into '?', still one component).
          assertEquals(1, dir.list().size(), dir.list().toString());
          assertEquals(name, new String(dir.read(name, 1000), StandardCharsets.UTF_8));
          try (var all = Files.walk(example)) {
            all.filter(Files::isRegularFile).forEach(p -> assertEquals(root, p.getParent(), "written elsewhere: " + p));
          }
          assertTrue(dir.delete(name));
        }
      } catch (AssertionError e) {
        throw new IllegalStateException("for '" + name + "': " + e.getMessage(), e);
      } catch (IOException e) {
        // A name the file system itself rejects (an unpaired surrogate, say) fails there, not outside.
        if (!(e instanceof java.nio.file.FileSystemException)) {
          throw new UncheckedIOException(e);
        }
      }
  }

  @Test
  void aSessionsNameIsAlwaysOnePlainComponent() {
    qt().withExamples(2_000).forAll(strings(HOSTILE, 1, 12), strings(HOSTILE, 1, 60)).checkAssert((channel, id) -> {
      String name;
      try {
        name = SessionNames.of(new SessionKey(channel, id));
      } catch (IllegalArgumentException e) {
        return; // not a session key at all
      }
      assertTrue(ConfinedDirectory.isComponent(name), name);
      assertFalse(name.startsWith("."), name);
      assertTrue(name.matches("[a-z0-9_~%A-F-]{1,200}"), name);
    });
  }

  @Test
  void aBlobKeyIsAlwaysOnePlainComponent_andTextThatIsNotOneIsNeverAKey() {
    qt().withExamples(2_000).forAll(strings(anyOf(HOSTILE, chars('0', '9'), chars('d', 'f')), 0, 80)).checkAssert(text ->
        BlobKey.parse(text).ifPresent(k -> {
          assertTrue(BLOB_KEY.matcher(k.fileName()).matches(), k.fileName());
          assertTrue(ConfinedDirectory.isComponent(k.fileName()), k.fileName());
        }));
    qt().withExamples(500).forAll(strings(chars('\u0000', '\u00ff'), 0, 64)).checkAssert(text -> {
      for (MediaType type : MediaType.values()) {
        String key = BlobKey.forContent(text.getBytes(StandardCharsets.UTF_8), type).fileName();
        assertTrue(ConfinedDirectory.isComponent(key) && BLOB_KEY.matcher(key).matches(), key);
      }
    });
  }
}
