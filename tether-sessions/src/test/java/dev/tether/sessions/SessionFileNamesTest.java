package dev.tether.sessions;

import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.tether.api.SessionKey;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

class SessionFileNamesTest {

  @Test
  void fileName_isReadableForOrdinaryKeys() {
    assertEquals("host~default.jsonl", SessionFileNames.fileName(SessionKey.host("default")));
    assertEquals("telegram~12345.jsonl", SessionFileNames.fileName(new SessionKey("telegram", "12345")));
  }

  @Test
  void fileName_separatesPairsThatAJoinedStringWouldConfuse() {
    SessionKey a = new SessionKey("host:x", "y");
    SessionKey b = new SessionKey("host", "x:y");
    SessionKey c = new SessionKey("host~x", "y");
    SessionKey d = new SessionKey("host", "x~y");
    assertEquals(4, java.util.Set.of(SessionFileNames.fileName(a), SessionFileNames.fileName(b),
        SessionFileNames.fileName(c), SessionFileNames.fileName(d)).size());
  }

  @Test
  void fileName_escapesTraversalAndSeparators() {
    String name = SessionFileNames.fileName(new SessionKey("..", "../../etc/passwd"));
    assertEquals("%2E%2E~%2E%2E%2F%2E%2E%2Fetc%2Fpasswd.jsonl", name);
    assertEquals("%uD800~%3F.jsonl", SessionFileNames.fileName(new SessionKey("\uD800", "?")));
  }

  @Test
  void fileName_ofAVeryLongId_isHashedWithAReadablePrefixAndFitsAFileSystem() {
    SessionKey key = new SessionKey("telegram", "x".repeat(1000));
    String name = SessionFileNames.fileName(key);
    assertTrue(name.startsWith("telegram~~"), name);
    assertTrue(name.length() <= SessionFileNames.MAX_PLAIN_LENGTH, name);
    assertEquals(Optional.empty(), SessionFileNames.decode(name));
    assertNotEquals(name, SessionFileNames.fileName(new SessionKey("telegram", "x".repeat(1001))));
  }

  @Test
  void fileName_isInjectiveEvenWhenCaseIsFolded() {
    qt().withExamples(2000).forAll(keyPairs()).checkAssert(pair -> {
      SessionKey a = pair._1;
      SessionKey b = pair._2;
      String na = SessionFileNames.fileName(a);
      String nb = SessionFileNames.fileName(b);
      assertEquals(a.equals(b), na.equals(nb), na + " vs " + nb);
      assertEquals(a.equals(b), na.toLowerCase(Locale.ROOT).equals(nb.toLowerCase(Locale.ROOT)));
    });
  }

  @Test
  void fileName_decodesBackToItsKeyAndUsesOnlySafeCharacters() {
    qt().withExamples(2000).forAll(keys()).checkAssert(key -> {
      String name = SessionFileNames.fileName(key);
      assertTrue(name.matches("[a-z0-9_%~A-Fu.-]{1,200}"), name);
      assertTrue(name.endsWith(".jsonl") && !name.startsWith("."), name);
      if (!name.contains("~~")) {
        assertEquals(Optional.of(key), SessionFileNames.decode(name));
      }
    });
  }

  /**
   * Each part of a key equally likely from: a small hostile alphabet (case pairs, the escape and
   * separator characters, a surrogate pair, non-ASCII), any UTF-16 chars, well-known ids, and long
   * runs that push the name past the length where it is hashed.
   */
  private static Gen<SessionKey> keys() {
    Gen<String> part = Generate.oneOf(
        strings(charsOf("aAbB~%:/.\\_-0u\u00e9\u4e2d\uD800\uDC00 "), 0, 8),
        strings(chars('\u0000', '\uffff'), 0, 12),
        arbitrary().pick("host", "telegram", "default", "12345", "%41", "A", "a", "~", "%"),
        strings(charsOf("xX%~"), 60, 120));
    return part.zip(part, SessionKey::new);
  }

  /**
   * Two keys: a quarter independent, a quarter equal, a quarter the first with its case swapped
   * (the pair case folding could merge), a quarter the first's characters split at another place
   * between channel and id (the pair a joined string could merge). Two independent keys almost
   * never differ by that little, so without the related pairs injectivity would go untested.
   */
  private static Gen<Pair<SessionKey, SessionKey>> keyPairs() {
    return keys().zip(keys(), integers().between(0, 3), integers().between(0, 1000), (a, other, how, cut) -> {
      String joined = a.channel() + a.id();
      int at = cut % (joined.length() + 1);
      SessionKey b = switch (how) {
        case 0 -> other;
        case 1 -> new SessionKey(a.channel(), a.id());
        case 2 -> new SessionKey(swapCase(a.channel()), swapCase(a.id()));
        default -> new SessionKey(joined.substring(0, at), joined.substring(at));
      };
      return Pair.of(a, b);
    });
  }

  private static String swapCase(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      b.append(Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c));
    }
    return b.toString();
  }
}
