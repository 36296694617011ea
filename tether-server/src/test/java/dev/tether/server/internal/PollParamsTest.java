package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PollParamsTest {
  private static PollParams poll(Map<String, List<String>> params) {
    return PollParams.parseForPoll(params::get);
  }

  @Test
  void defaults_hostChannelDefaultSessionNoWait() {
    PollParams p = poll(Map.of());
    assertEquals("host", p.query().channel());
    assertEquals("default", p.query().sessionId());
    assertEquals(0, p.query().afterSeq());
    assertEquals(50, p.query().limit());
    assertEquals(0, p.waitMs());
    assertTrue(p.query().types().isEmpty());
    assertNull(p.query().replyToMsgId());
    assertFalse(p.afterSeqGiven());
  }

  @Test
  void star_meansAnyChannelOrSession() {
    PollParams p = poll(Map.of("channel", List.of("*"), "session_id", List.of("*")));
    assertNull(p.query().channel());
    assertNull(p.query().sessionId());
  }

  @Test
  void types_commaSeparatedAndRepeated_areUnited() {
    PollParams p = poll(Map.of("types", List.of("assistant.delta, assistant.done", "status.presence", ",,")));
    assertEquals(Set.of("assistant.delta", "assistant.done", "status.presence"), p.query().types());
  }

  @Test
  void everyParameter_isRead() {
    PollParams p = poll(Map.of("channel", List.of("telegram"), "session_id", List.of("42"), "after_seq", List.of("17"),
        "limit", List.of("5"), "wait_ms", List.of("2500"), "reply_to_msg_id", List.of("host-1")));
    assertEquals("telegram", p.query().channel());
    assertEquals("42", p.query().sessionId());
    assertEquals(17, p.query().afterSeq());
    assertEquals(5, p.query().limit());
    assertEquals(2500, p.waitMs());
    assertEquals("host-1", p.query().replyToMsgId());
    assertTrue(p.afterSeqGiven());
  }

  @Test
  void waitMs_isClampedTo0Through30000_forEveryLong() {
    qt().withExamples(1000).forAll(longs().all()).checkAssert(w -> {
      PollParams p = poll(Map.of("wait_ms", List.of(Long.toString(w))));
      assertEquals(Math.max(0, Math.min(30_000, w)), p.waitMs());
    });
  }

  @Test
  void limit_zeroOrNegativeMeans50_andAtMost200_forEveryLong() {
    qt().withExamples(1000).forAll(longs().all()).checkAssert(l -> {
      PollParams p = poll(Map.of("limit", List.of(Long.toString(l))));
      assertEquals(l <= 0 ? 50 : Math.min(200, l), p.query().limit());
    });
  }

  @Test
  void nonNumbers_areRejectedNamingTheParameter() {
    qt().withExamples(300).forAll(strings().basicLatinAlphabet().ofLengthBetween(0, 12)).checkAssert(s -> {
      boolean number = s.trim().matches("[+-]?\\d{1,18}");
      for (String name : List.of("after_seq", "limit", "wait_ms")) {
        Map<String, List<String>> m = new HashMap<>();
        m.put(name, List.of(s));
        if (number) {
          continue;
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> poll(m), name + "=" + s);
        assertTrue(e.getMessage().startsWith(name), e.getMessage());
      }
    });
  }

  @Test
  void negativeAfterSeq_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> poll(Map.of("after_seq", List.of("-1"))));
  }

  @Test
  void lastValueWins_forSingleValuedParameters() {
    assertEquals(9, poll(Map.of("after_seq", List.of("3", "9"))).query().afterSeq());
  }
}
