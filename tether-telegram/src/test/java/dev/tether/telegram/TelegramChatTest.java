package dev.tether.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class TelegramChatTest {
  @Test
  void sessionId_roundTripsForEvery64BitChatAndTopic() {
    qt().forAll(longs().all(), longs().between(1, Long.MAX_VALUE)).checkAssert((chat, topic) -> {
      assertEquals(Optional.of(TelegramChat.of(chat)), TelegramChat.parse(TelegramChat.of(chat).sessionId()));
      assertEquals(Optional.of(TelegramChat.topic(chat, topic)), TelegramChat.parse(TelegramChat.topic(chat, topic).sessionId()));
    });
  }

  @Test
  void groupsAreNegative_andTopicsAreChatColonThread() {
    assertEquals("-1001234567890", TelegramChat.of(-1001234567890L).sessionId());
    assertEquals("-1001234567890:77", TelegramChat.topic(-1001234567890L, 77).sessionId());
  }

  @Test
  void nonCanonicalOrForeignIds_nameNoChat() {
    for (String id : new String[] {"default", "", "+42", "042", "42:", ":7", "1:2:3", "99999999999999999999", " 42"}) {
      assertEquals(Optional.empty(), TelegramChat.parse(id), id);
    }
  }
}
