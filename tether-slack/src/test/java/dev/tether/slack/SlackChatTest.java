package dev.tether.slack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SlackChatTest {
  @Test
  void sessionId_roundTrips_andOnlyTheCanonicalSpellingParses() {
    SlackChat chat = new SlackChat("C0123ABCD", "1700000000.000100");
    assertEquals(Optional.of(chat), SlackChat.parse(chat.sessionId()));
    for (String bad : new String[] {"", "C0123ABCD", "c0123abcd:1.2", "C0123ABCD:abc", "X0123:1.2", "C0123ABCD:1.2:3", "../C1:1.2"}) {
      assertEquals(Optional.empty(), SlackChat.parse(bad), bad);
    }
  }

  @Test
  void anyString_eitherParsesToAChatWhoseSessionIdIsItself_orIsRefused() {
    qt().forAll(strings().ascii().ofLengthBetween(0, 40)).checkAssert(s ->
        assertTrue(SlackChat.parse(s).map(c -> c.sessionId().equals(s)).orElse(true), s));
  }
}
