package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tether.api.internal.ApiInternals;
import org.junit.jupiter.api.Test;

class FrameWithSeqTest {
  @Test
  void withSeq_keepsEveryFieldAndSharesPayloadBytes() {
    Frame f = Frame.builder("assistant.done").version(1).session(SessionKey.host("a")).msgId("host-1")
        .ts(java.time.Instant.parse("2026-01-01T00:00:00Z"))
        .payload(RawJson.of("{\"text\":\"hi\"}")).extension("x_trace", RawJson.of("\"t1\"")).build();
    Frame stored = f.withSeq(42);
    assertEquals(42, stored.seq());
    assertEquals(f.toBuilder().seq(42).build(), stored);
    assertSame(ApiInternals.array(f.payload()), ApiInternals.array(stored.payload()));
    assertEquals(0, f.seq(), "the original is unchanged");
  }

  @Test
  void withSeq_rejectsNegativeSeq() {
    Frame f = Frame.builder("x").build();
    assertEquals("seq must be >= 0 but was -1",
        assertThrows(IllegalArgumentException.class, () -> f.withSeq(-1)).getMessage());
  }
}
