package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The protocol's limits and the builder's fail-fast checks. */
class LimitsTest {
  @Test
  void defaults_areTheProtocolsBinaryLimits() {
    Limits d = Limits.defaults();
    assertEquals(10L * 1024 * 1024, d.maxImageBytes());
    assertEquals(20L * 1024 * 1024, d.maxFrameImageBytes());
    assertEquals(4, d.maxImagesPerMessage());
    assertEquals(28 * 1024 * 1024, d.maxFrameBytes());
    assertEquals(d, Limits.builder().build());
    assertEquals(d, d.toBuilder().build());
    assertEquals(d.hashCode(), d.toBuilder().build().hashCode());
    assertNotEquals(d, d.toBuilder().maxImagesPerMessage(3).build());
  }

  @Test
  void builder_namesTheSettingAndValueItRejects() {
    assertEquals("maxImageBytes must be > 0 but was 0",
        assertThrows(IllegalArgumentException.class, () -> Limits.builder().maxImageBytes(0)).getMessage());
    assertEquals("maxFrameImageBytes must be > 0 but was -1",
        assertThrows(IllegalArgumentException.class, () -> Limits.builder().maxFrameImageBytes(-1)).getMessage());
    assertEquals("maxImagesPerMessage must be >= 0 but was -1",
        assertThrows(IllegalArgumentException.class, () -> Limits.builder().maxImagesPerMessage(-1)).getMessage());
    assertEquals("maxFrameBytes must be <= 2147483639 but was 2147483647",
        assertThrows(IllegalArgumentException.class, () -> Limits.builder().maxFrameBytes(Integer.MAX_VALUE)).getMessage());
    assertEquals(0, Limits.builder().maxImagesPerMessage(0).build().maxImagesPerMessage(), "text-only hosts");
  }

  @Test
  void frameBuilder_failsFastOnBadEnvelopeValues() {
    assertThrows(IllegalArgumentException.class, () -> Frame.builder(""));
    assertThrows(NullPointerException.class, () -> Frame.builder(null));
    assertThrows(IllegalArgumentException.class, () -> Frame.builder("a").version(0));
    assertThrows(IllegalArgumentException.class, () -> Frame.builder("a").seq(-1));
    assertThrows(IllegalArgumentException.class, () -> Frame.builder("a").payload(RawJson.of("[1]")));
    assertEquals("'msg_id' is an envelope field; use its setter",
        assertThrows(IllegalArgumentException.class, () -> Frame.builder("a").extension("msg_id", RawJson.of("1"))).getMessage());
    assertEquals(ErrorCode.MALFORMED_FRAME, assertThrows(TetherException.class, () -> RawJson.of("{} {}")).code());
  }
}
