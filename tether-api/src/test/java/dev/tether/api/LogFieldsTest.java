package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogFieldsTest {
  @Test
  void frameFields_nameTheAsk_andLeaveOutWhatTheFrameLacks() {
    Frame stored = Frame.of(new SessionKey("telegram", "42"), "tg-42-7", Payload.UserMessage.of("hi", List.of())).withSeq(9);
    assertEquals(Map.of("instance", "vm1", "session", "telegram:42", "msg_id", "tg-42-7", "type", "user.message", "seq", "9"),
        LogFields.of("vm1", stored));
    Frame bare = Frame.builder("user.message").build();
    assertEquals(Map.of("type", "user.message"), LogFields.of(null, bare));
  }

  @Test
  void pairs_withNullValuesLeftOut_andAnOddCountRefused() {
    assertEquals(Map.of("instance", "vm1"), LogFields.of("instance", "vm1", "msg_id", null));
    assertThrows(IllegalArgumentException.class, () -> LogFields.of("instance"));
  }
}
