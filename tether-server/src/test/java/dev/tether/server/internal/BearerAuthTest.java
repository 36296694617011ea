package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The bearer check both listeners share, and the console's token. */
class BearerAuthTest {
  private final String token = BearerAuth.newToken();
  private final BearerAuth auth = new BearerAuth(token);

  @Test
  void accepts_theTokenWithAnyCaseOfTheScheme_andSurroundingSpace() {
    assertTrue(auth.accepts("Bearer " + token));
    assertTrue(auth.accepts("bearer " + token));
    assertTrue(auth.accepts("  BEARER   " + token + "  "));
  }

  @Test
  void refuses_missingHeader_otherSchemes_andTheTokenAlone() {
    assertFalse(auth.accepts(null));
    assertFalse(auth.accepts(""));
    assertFalse(auth.accepts("Bearer"));
    assertFalse(auth.accepts("Bearer "));
    assertFalse(auth.accepts(token));
    assertFalse(auth.accepts("Basic " + token));
    assertFalse(auth.accepts("Bearer " + token + "x"));
    assertFalse(auth.accepts("Bearer " + token.substring(1)));
  }

  @Test
  void refuses_everyOtherToken() {
    qt().withExamples(2000).forAll(strings().basicLatinAlphabet().ofLengthBetween(0, 60)).checkAssert(guess -> {
      assertEquals(guess.strip().equals(token), auth.accepts("Bearer " + guess));
    });
    // One character changed anywhere is still refused: the comparison has no prefix shortcut.
    qt().withExamples(500).forAll(integers().between(0, token.length() - 1)).checkAssert(i -> {
      char c = token.charAt(i) == 'A' ? 'B' : 'A';
      assertFalse(auth.accepts("Bearer " + token.substring(0, i) + c + token.substring(i + 1)));
    });
  }

  @Test
  void newToken_is32RandomBytesAsUrlSafeBase64_neverRepeated() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      String t = BearerAuth.newToken();
      assertTrue(t.matches("[A-Za-z0-9_-]{43}"), t);
      assertEquals(BearerAuth.TOKEN_BYTES, java.util.Base64.getUrlDecoder().decode(t).length);
      assertTrue(seen.add(t), "repeated token " + t);
    }
  }

  @Test
  void emptyToken_isRefusedAtConstruction() {
    assertThrows(IllegalArgumentException.class, () -> new BearerAuth(""));
  }
}
