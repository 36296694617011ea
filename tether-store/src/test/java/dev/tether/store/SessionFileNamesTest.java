package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.SessionKey;
import java.util.Locale;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

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

  @Property(tries = 2000)
  void fileName_isInjectiveEvenWhenCaseIsFolded(@ForAll("keys") SessionKey a, @ForAll("keys") SessionKey b) {
    String na = SessionFileNames.fileName(a);
    String nb = SessionFileNames.fileName(b);
    assertEquals(a.equals(b), na.equals(nb), na + " vs " + nb);
    assertEquals(a.equals(b), na.toLowerCase(Locale.ROOT).equals(nb.toLowerCase(Locale.ROOT)));
  }

  @Property(tries = 2000)
  void fileName_decodesBackToItsKeyAndUsesOnlySafeCharacters(@ForAll("keys") SessionKey key) {
    String name = SessionFileNames.fileName(key);
    assertTrue(name.matches("[a-z0-9_%~A-Fu.-]{1,200}"), name);
    assertTrue(name.endsWith(".jsonl") && !name.startsWith("."), name);
    if (!name.contains("~~")) {
      assertEquals(Optional.of(key), SessionFileNames.decode(name));
    }
  }

  @Provide
  Arbitrary<SessionKey> keys() {
    Arbitrary<String> part = Arbitraries.oneOf(
        Arbitraries.strings().withChars("aAbB~%:/.\\_-0u\u00e9\u4e2d\uD800\uDC00 ").ofMaxLength(8),
        Arbitraries.strings().ofMaxLength(12),
        Arbitraries.of("host", "telegram", "default", "12345", "%41", "A", "a", "~", "%"),
        Arbitraries.strings().withChars("xX%~").ofMinLength(60).ofMaxLength(120));
    return Combinators.combine(part, part).as(SessionKey::new);
  }
}
