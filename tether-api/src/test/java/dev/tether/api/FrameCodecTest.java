package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FrameCodecTest {
  private final FrameCodec codec = FrameCodec.standard();

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Reads {@code json} both ways the codec offers and checks they agree. */
  private List<Frame> readBothWays(String json) throws IOException {
    Frame fromBytes = codec.read(utf8(json));
    Frame fromStream = codec.read(new ByteArrayInputStream(utf8(json)));
    assertEquals(fromBytes, fromStream);
    return List.of(fromBytes, fromStream);
  }

  @Test
  void read_keepsPayloadAndUnknownFieldsAsTheirExactBytes() throws Exception {
    String json = "{\"v\":1,\"type\":\"user.message\",\"zz\":  [1, {\"a\":\"b\"}] ,\"session\":{\"channel\":\"host\",\"id\":\"d\"},"
        + "\"payload\":{ \"text\" : \"hi\", \"x\": 2 },\"n\":12,\"s\":\"str\",\"t\":true}";
    for (Frame frame : List.of(codec.read(utf8(json)), codec.read(new ByteArrayInputStream(utf8("  " + json + " \n"))))) {
      assertEquals("{ \"text\" : \"hi\", \"x\": 2 }", frame.payload().toString());
      assertEquals("[1, {\"a\":\"b\"}]", frame.extensions().get("zz").toString());
      assertEquals("12", frame.extensions().get("n").toString());
      assertEquals("\"str\"", frame.extensions().get("s").toString());
      assertEquals("true", frame.extensions().get("t").toString());
      assertEquals(new SessionKey("host", "d"), frame.session().orElseThrow());
      Payload.UserMessage m = (Payload.UserMessage) frame.payloadView();
      assertEquals("hi", m.text());
      assertEquals("2", m.extra().get("x").toString());
    }
  }

  @Test
  void read_fromBytesAndStream_giveEveryEnvelopeField() throws Exception {
    String json = "{\"v\":1,\"type\":\"assistant.done\",\"ts\":\"2026-01-02T03:04:05.123456789Z\","
        + "\"session\":{\"channel\":\"telegram\",\"id\":\"42\"},\"msg_id\":\"host-9\",\"seq\":18,\"payload\":{\"text\":\"ok\"}}";
    for (Frame f : readBothWays(json)) {
      assertEquals(1, f.version());
      assertEquals("assistant.done", f.type());
      assertEquals(Instant.parse("2026-01-02T03:04:05.123456789Z"), f.ts().orElseThrow());
      assertEquals(new SessionKey("telegram", "42"), f.session().orElseThrow());
      assertEquals("host-9", f.msgId().orElseThrow());
      assertEquals(18, f.seq());
      assertEquals("{\"text\":\"ok\"}", f.payload().toString());
      assertFalse(f.isHostToGuest());
    }
  }

  @Test
  void read_minimalFrame_defaultsTheAbsentFields() throws Exception {
    for (Frame f : readBothWays("{\"v\":1,\"type\":\"control.cancel\"}")) {
      assertEquals(1, f.version());
      assertTrue(f.ts().isEmpty());
      assertTrue(f.session().isEmpty());
      assertTrue(f.msgId().isEmpty());
      assertEquals(0, f.seq());
      assertFalse(f.hasPayload());
      assertEquals("{}", f.payload().toString());
      assertTrue(f.isHostToGuest());
      // Absent fields stay absent when written again.
      assertEquals("{\"v\":1,\"type\":\"control.cancel\"}", text(codec.write(f)));
    }
  }

  @Test
  void write_roundTripsUnknownFields() {
    String json = "{\"v\":1,\"type\":\"x.y\",\"seq\":3,\"payload\":{\"a\":[1,2]},\"extra\":{\"k\":null}}";
    Frame frame = codec.read(utf8(json));
    assertEquals(json, new String(codec.write(frame), StandardCharsets.UTF_8));
  }

  @Test
  void readModifyWrite_keepsUnknownEnvelopeAndPayloadFields() throws Exception {
    String json = "{\"v\":1,\"type\":\"user.message\",\"trace\":{\"id\":\"t-1\",\"hops\":[1,2]},\"msg_id\":\"m\","
        + "\"payload\":{\"text\":\"hi\",\"lang\":\"de\",\"meta\":{\"k\":[true,null]}},\"zzz\":-0.5e3}";
    Frame original = codec.read(utf8(json));
    Frame changed = original.toBuilder().seq(7).build();
    byte[] written = codec.write(changed);
    for (Frame again : List.of(codec.read(written), codec.read(new ByteArrayInputStream(written)))) {
      assertEquals(7, again.seq());
      assertEquals(original.extensions(), again.extensions());
      assertEquals(List.of("trace", "zzz"), List.copyOf(again.extensions().keySet()));
      assertEquals("{\"id\":\"t-1\",\"hops\":[1,2]}", again.extensions().get("trace").toString());
      assertEquals("-0.5e3", again.extensions().get("zzz").toString());
      assertEquals(original.payload(), again.payload());
      Payload.UserMessage view = (Payload.UserMessage) again.payloadView();
      assertEquals("\"de\"", view.extra().get("lang").toString());
      assertEquals("{\"k\":[true,null]}", view.extra().get("meta").toString());
    }
    assertEquals("{\"v\":1,\"type\":\"user.message\",\"msg_id\":\"m\",\"seq\":7,"
        + "\"payload\":{\"text\":\"hi\",\"lang\":\"de\",\"meta\":{\"k\":[true,null]}},"
        + "\"trace\":{\"id\":\"t-1\",\"hops\":[1,2]},\"zzz\":-0.5e3}", text(written));
  }

  @Test
  void readModifyWrite_throughTheTypedView_keepsUnknownPayloadFields() {
    String json = "{\"v\":1,\"type\":\"assistant.done\",\"payload\":{\"x-first\":1,\"text\":\"a\",\"tool\":{\"n\":\"grep\"}}}";
    Frame frame = codec.read(utf8(json));
    Payload.AssistantDone view = (Payload.AssistantDone) frame.payloadView();
    Payload.AssistantDone edited = new Payload.AssistantDone(view.text() + "b", view.images(), view.extra());
    Frame written = frame.toBuilder().payload(edited).build();
    // Canonical order: modelled fields first, then the unknown ones in their original order.
    assertEquals("{\"v\":1,\"type\":\"assistant.done\",\"payload\":{\"text\":\"ab\",\"x-first\":1,\"tool\":{\"n\":\"grep\"}}}",
        text(codec.write(written)));
  }

  @Test
  void write_isCompactForFramesBuiltFromTypedParts() {
    Frame frame = Frame.builder(FrameTypes.USER_MESSAGE)
        .version(1)
        .ts(Instant.parse("2026-03-04T05:06:07Z"))
        .session(SessionKey.host("s 1"))
        .msgId("host-1")
        .payload(Payload.UserMessage.of("line\none \"quoted\" \u00e9", List.of()))
        .build();
    String written = text(codec.write(frame));
    assertEquals("{\"v\":1,\"type\":\"user.message\",\"ts\":\"2026-03-04T05:06:07Z\","
        + "\"session\":{\"channel\":\"host\",\"id\":\"s 1\"},\"msg_id\":\"host-1\","
        + "\"payload\":{\"text\":\"line\\none \\\"quoted\\\" \u00e9\"}}", written);
  }

  @Test
  void write_compactsTheEnvelopeButKeepsRawPayloadBytesVerbatim() {
    // Raw JSON is never re-encoded: the envelope is rewritten compactly, the payload is copied.
    String pretty = "{\n  \"v\" : 1,\n  \"type\" : \"x\",\n  \"seq\" : 2,\n  \"payload\" : { \"a\" : 1 },\n  \"ext\" : [ 1 ]\n}\n";
    assertEquals("{\"v\":1,\"type\":\"x\",\"seq\":2,\"payload\":{ \"a\" : 1 },\"ext\":[ 1 ]}", text(codec.write(codec.read(utf8(pretty)))));
  }

  @Test
  void write_toStream_isTheSameAsToArray() throws Exception {
    Frame frame = codec.read(utf8("{\"v\":1,\"type\":\"a.b\",\"payload\":{\"k\":\"v\"},\"u\":0}"));
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    codec.write(frame, out);
    assertArrayEquals(codec.write(frame), out.toByteArray());
  }

  @Test
  void reservedRefAndSize_areIgnoredOnReadAndNeverWritten() {
    String json = "{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"\",\"images\":[{\"ref\":\"sha256:abc\","
        + "\"media_type\":\"image/png\",\"size\":1048576,\"data\":\"iVBORw0KGgo=\"}]}}";
    Frame frame = codec.read(utf8(json));
    Payload.UserMessage view = (Payload.UserMessage) frame.payloadView();
    assertEquals(List.of(new Image(MediaType.PNG, "iVBORw0KGgo=")), view.images());
    assertTrue(view.extra().isEmpty());
    Frame rebuilt = Frame.of(SessionKey.host("default"), "m1", view);
    String written = text(codec.write(rebuilt));
    assertFalse(written.contains("ref"), written);
    assertFalse(written.contains("size"), written);
    assertTrue(written.endsWith("\"payload\":{\"text\":\"\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}]}}"),
        written);
  }

  @Test
  void refWithoutData_isRejectedBecauseRefIsOnlyReserved() {
    Frame frame = codec.read(utf8("{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"\",\"images\":["
        + "{\"media_type\":\"image/png\",\"data\":\"AAAA\"},{\"media_type\":\"image/png\",\"ref\":\"sha256:abc\",\"size\":3}]}}"));
    TetherException e = assertThrows(TetherException.class, frame::payloadView);
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    assertEquals(1, e.imageIndex().orElseThrow());
    assertTrue(e.getMessage().contains("\"ref\" is reserved"), e.getMessage());
  }

  @Test
  void ts_withOffset_isReadAsTheUtcInstantAndWrittenInUtc() throws Exception {
    for (Frame f : readBothWays("{\"v\":1,\"type\":\"a\",\"ts\":\"2026-06-01T12:00:00.5+02:00\"}")) {
      assertEquals(Instant.parse("2026-06-01T10:00:00.500Z"), f.ts().orElseThrow());
      assertEquals("{\"v\":1,\"type\":\"a\",\"ts\":\"2026-06-01T10:00:00.500Z\"}", text(codec.write(f)));
    }
    assertEquals(Instant.parse("2026-01-01T05:30:00Z"),
        codec.read(utf8("{\"v\":1,\"type\":\"a\",\"ts\":\"2025-12-31T23:00:00-06:30\"}")).ts().orElseThrow());
    assertEquals(Instant.parse("2026-01-01T00:00:00Z"),
        codec.read(utf8("{\"v\":1,\"type\":\"a\",\"ts\":\"2026-01-01t00:00:00z\"}")).ts().orElseThrow(), "RFC 3339 allows lower case t and z");
  }

  @Test
  void ts_atTheEdgesOfRfc3339Years_isReadAndWrittenBack() {
    for (String ts : List.of("0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "0000-01-01T01:00:00+01:00")) {
      Frame f = codec.read(utf8("{\"v\":1,\"type\":\"a\",\"ts\":\"" + ts + "\"}"));
      assertEquals(f, codec.read(codec.write(f)), ts);
    }
  }

  @Test
  void builder_rejectsATimestampThatCouldNotBeWrittenAsRfc3339() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Frame.builder("a").ts(Instant.MAX));
    assertTrue(e.getMessage().startsWith("ts must be within years 0000-9999"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Frame.builder("a").ts(Instant.parse("-0001-12-31T23:59:59Z")));
  }

  @Test
  void ts_missingOrNull_isTolerated() {
    assertTrue(codec.read(utf8("{\"v\":1,\"type\":\"a\"}")).ts().isEmpty());
    assertTrue(codec.read(utf8("{\"v\":1,\"type\":\"a\",\"ts\":null}")).ts().isEmpty());
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"yesterday\"", "\"2026-01-02T03:04:05\"", "\"2026-13-02T03:04:05Z\"", "\"2026-01-02\"",
      "\"\"", "1735787045", "true", "{}", "\"2026-01-02T25:04:05Z\"", "\"2026-01-02T03:04:05+25:00\"",
      "\"+999999999-12-31T23:59:59-18:00\"", "\"+10000-01-01T00:00:00Z\"", "\"-0001-01-01T00:00:00Z\"",
      "\"0000-01-01T00:00:00+01:00\"", "\"9999-12-31T23:59:59-01:00\"", "\"26-01-02T03:04:05Z\""})
  void ts_thatIsNotRfc3339_isRejected(String ts) {
    TetherException e = assertThrows(TetherException.class, () -> codec.read(utf8("{\"v\":1,\"type\":\"a\",\"ts\":" + ts + "}")));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    assertTrue(e.getMessage().contains("ts must be"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"v\":1,\"type\":\"a\",\"type\":\"b\"}",
      "{\"v\":1,\"type\":\"a\",\"payload\":{},\"payload\":{}}",
      "{\"v\":1,\"type\":\"a\",\"payload\":{\"k\":1,\"k\":2}}",
      "{\"v\":1,\"type\":\"a\",\"x\":{\"deep\":[{\"k\":1,\"k\":1}]}}",
      "{\"v\":1,\"type\":\"a\",\"session\":{\"channel\":\"host\",\"id\":\"a\",\"id\":\"b\"}}",
      "{\"v\":1,\"type\":\"a\",\"ext\":1,\"ext\":1}"})
  void duplicateKeys_anywhere_areRejected(String json) {
    for (byte[] bytes : List.of(utf8(json))) {
      TetherException e = assertThrows(TetherException.class, () -> codec.read(bytes));
      assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
      assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("duplicate"), e.getMessage());
      TetherException s = assertThrows(TetherException.class, () -> codec.read(new ByteArrayInputStream(bytes)));
      assertEquals(ErrorCode.MALFORMED_FRAME, s.code());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "   ", "[]", "\"frame\"", "null", "{", "{\"v\":1,\"type\":\"a\"", "{\"v\":1,\"type\":1}", "{\"v\":1,\"type\":\"\"}", "{}",
      "{\"v\":1,\"type\":\"a\"} x", "{\"v\":1,\"type\":\"a\"}{\"v\":1,\"type\":\"a\"}", "{\"v\":1,\"type\":\"a\",\"v\":0}", "{\"v\":1,\"type\":\"a\",\"v\":\"1\"}",
      "{\"v\":1,\"type\":\"a\",\"v\":1.0}", "{\"v\":1,\"type\":\"a\",\"v\":4294967297}", "{\"v\":1,\"type\":\"a\",\"seq\":-1}",
      "{\"v\":1,\"type\":\"a\",\"seq\":1e3}", "{\"v\":1,\"type\":\"a\",\"seq\":99999999999999999999}", "{\"v\":1,\"type\":\"a\",\"payload\":[]}",
      "{\"v\":1,\"type\":\"a\",\"payload\":\"{}\"}", "{\"v\":1,\"type\":\"a\",\"session\":\"host:default\"}",
      "{\"v\":1,\"type\":\"a\",\"session\":{\"channel\":\"host\"}}", "{\"v\":1,\"type\":\"a\",\"session\":{\"channel\":1,\"id\":\"d\"}}",
      "{\"v\":1,\"type\":\"a\",\"msg_id\":5}", "{'type':'a'}", "{\"v\":1,\"type\":\"a\",}", "{\"v\":1,\"type\":\"a\",\"x\":NaN}",
      "{\"v\":1,\"type\":\"a\",\"x\":01}", "{\"v\":1,\"type\":\"a\" /* c */}", "{\"v\":1,\"type\":\"a\",\"x\":\"\u0001\"}"})
  void malformedInput_isRejectedAsMalformedFrame(String json) {
    TetherException e = assertThrows(TetherException.class, () -> codec.read(utf8(json)));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), e.getMessage());
    assertTrue(e.imageIndex().isEmpty());
    TetherException s = assertThrows(TetherException.class, () -> codec.read(new ByteArrayInputStream(utf8(json))));
    assertEquals(ErrorCode.MALFORMED_FRAME, s.code());
  }

  @Test
  void malformedMessages_doNotEchoTheInput() {
    String secret = "sk-secret-token-value";
    TetherException e = assertThrows(TetherException.class,
        () -> codec.read(utf8("{\"v\":1,\"type\":\"a\",\"x\":\"" + secret + "\" oops}")));
    assertFalse(e.getMessage().contains(secret), e.getMessage());
  }

  @Test
  void read_rejectsTrailingGarbage() {
    TetherException e = assertThrows(TetherException.class, () -> codec.read(utf8("{\"v\":1,\"type\":\"a\"} x")));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
  }

  @Test
  void read_deeplyNestedUnknownField_isRejectedNotAStackOverflow() {
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    TetherException e = assertThrows(TetherException.class, () -> codec.read(utf8("{\"v\":1,\"type\":\"a\",\"x\":" + deep + "}")));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
  }

  // --- the wire limit ---

  /** A frame of exactly {@code size} bytes: a small frame padded with trailing whitespace. */
  static byte[] frameOfSize(int size) {
    byte[] head = utf8("{\"v\":1,\"type\":\"a\"}");
    byte[] frame = Arrays.copyOf(head, size);
    Arrays.fill(frame, head.length, size, (byte) ' ');
    return frame;
  }

  @Test
  void read_atExactlyTheWireLimit_isAcceptedAndOneByteMoreIsNot() throws Exception {
    FrameCodec small = FrameCodec.withLimits(Limits.builder().maxFrameBytes(100).build());
    assertEquals("a", small.read(frameOfSize(100)).type());
    assertEquals("a", small.read(new ByteArrayInputStream(frameOfSize(100))).type());
    assertEquals(ErrorCode.FRAME_TOO_LARGE, assertThrows(TetherException.class, () -> small.read(frameOfSize(101))).code());
    assertEquals(ErrorCode.FRAME_TOO_LARGE,
        assertThrows(TetherException.class, () -> small.read(new ByteArrayInputStream(frameOfSize(101)))).code());
  }

  /** An endless stream of spaces that counts what it hands out, in chunks of at most {@code chunk}. */
  static final class EndlessCountingStream extends InputStream {
    private final int chunk;
    long served;

    EndlessCountingStream(int chunk) {
      this.chunk = chunk;
    }

    @Override
    public int read() {
      served++;
      return ' ';
    }

    @Override
    public int read(byte[] b, int off, int len) {
      int n = Math.min(len, chunk);
      Arrays.fill(b, off, off + n, (byte) ' ');
      served += n;
      return n;
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 100, 8192, Integer.MAX_VALUE})
  void read_fromEndlessStream_readsAtMostLimitPlusOneBytes(int chunk) {
    int limit = 50_000;
    FrameCodec small = FrameCodec.withLimits(Limits.builder().maxFrameBytes(limit).build());
    EndlessCountingStream in = new EndlessCountingStream(chunk);
    TetherException e = assertThrows(TetherException.class, () -> small.read(in));
    assertEquals(ErrorCode.FRAME_TOO_LARGE, e.code());
    assertEquals(limit + 1, in.served, "bytes read before giving up");
    assertTrue(e.getMessage().contains(String.valueOf(limit)), e.getMessage());
  }

  @Test
  void read_fromStream_doesNotCloseIt() throws Exception {
    boolean[] closed = {false};
    InputStream in = new ByteArrayInputStream(utf8("{\"v\":1,\"type\":\"a\"}")) {
      @Override
      public void close() {
        closed[0] = true;
      }
    };
    codec.read(in);
    assertFalse(closed[0]);
  }

  @Test
  void read_fromStream_passesIoExceptionsThrough() {
    InputStream failing = new InputStream() {
      @Override
      public int read() throws IOException {
        throw new IOException("connection reset");
      }
    };
    assertEquals("connection reset", assertThrows(IOException.class, () -> codec.read(failing)).getMessage());
  }

  @Test
  void pairedSurrogateEscapes_surviveWriteAndCanonicalRewrite() {
    for (String s : List.of("\\ud83d\\ude00", "x\\uD83D\\uDE00y", "\\\\ud800")) {
      Frame frame = codec.read(utf8("{\"v\":1,\"type\":\"user.message\",\"msg_id\":\"" + s + "\",\"payload\":{\"text\":\"" + s + "\"}}"));
      assertEquals(frame, codec.read(codec.write(frame)), s);
      Frame canonical = frame.toBuilder().payload(frame.payloadView()).build();
      assertEquals(frame.payloadView(), codec.read(codec.write(canonical)).payloadView(), s);
    }
  }

  @ParameterizedTest(name = "{0} in {1}")
  @CsvSource(delimiter = '|', value = {
      "\\ud800|msg_id", "\\udc00|msg_id", "\\ud800\\u0041|msg_id", "\\ud800\\ud800|payload text",
      "\\udfff\\ud800|payload text", "\\ud800|payload key", "\\ud800|unknown field", "\\ud800|session id",
      "\\ud800|session extra", "x\\udbff|nested unknown"})
  void read_unpairedSurrogateEscapeInAnyString_isMalformed(String escape, String where) throws Exception {
    String json = switch (where) {
      case "msg_id" -> "{\"v\":1,\"type\":\"x.y\",\"msg_id\":\"" + escape + "\"}";
      case "payload text" -> "{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"" + escape + "\"}}";
      case "payload key" -> "{\"v\":1,\"type\":\"x.y\",\"payload\":{\"" + escape + "\":1}}";
      case "unknown field" -> "{\"v\":1,\"type\":\"x.y\",\"trace\":\"" + escape + "\"}";
      case "session id" -> "{\"v\":1,\"type\":\"x.y\",\"session\":{\"channel\":\"host\",\"id\":\"" + escape + "\"}}";
      case "session extra" -> "{\"v\":1,\"type\":\"x.y\",\"session\":{\"channel\":\"host\",\"id\":\"d\",\"n\":\"" + escape + "\"}}";
      default -> "{\"v\":1,\"type\":\"x.y\",\"t\":[{\"a\":[\"" + escape + "\"]}]}";
    };
    for (java.util.concurrent.Callable<Frame> read : List.<java.util.concurrent.Callable<Frame>>of(
        () -> codec.read(utf8(json)), () -> codec.read(new ByteArrayInputStream(utf8(json))))) {
      TetherException e = assertThrows(TetherException.class, read::call, json);
      assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
      assertTrue(e.getMessage().startsWith(dev.tether.api.internal.WireRules.LONE_SURROGATE), e.getMessage());
    }
    String payload = "{\"k\":\"" + escape + "\"}";
    assertEquals(ErrorCode.MALFORMED_FRAME, assertThrows(TetherException.class, () -> RawJson.of(payload)).code());
  }

  @Test
  void read_withoutVersion_isMalformedAndOtherNumbersAreUnsupported() throws Exception {
    TetherException missing = assertThrows(TetherException.class, () -> codec.read(utf8("{\"type\":\"user.message\",\"payload\":{\"text\":\"hi\"}}")));
    assertEquals(ErrorCode.MALFORMED_FRAME, missing.code());
    assertEquals(dev.tether.api.internal.WireRules.VERSION_MISSING, missing.getMessage());
    for (String v : List.of("2", "0", "-1", "-0", "2147483648", "99999999999999999999999999999999")) {
      String json = "{\"v\":" + v + ",\"type\":\"user.message\",\"payload\":{\"text\":\"hi\"}}";
      TetherException e = assertThrows(TetherException.class, () -> codec.read(new ByteArrayInputStream(utf8(json))), v);
      assertEquals(ErrorCode.UNSUPPORTED_VERSION, e.code(), v);
      assertEquals(dev.tether.api.internal.WireRules.versionUnsupported(v), e.getMessage());
    }
    for (String v : List.of("1.0", "\"1\"", "null", "true", "[1]", "1e0")) {
      String json = "{\"type\":\"user.message\",\"v\":" + v + "}";
      TetherException e = assertThrows(TetherException.class, () -> codec.read(utf8(json)), v);
      assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), v);
      assertEquals(dev.tether.api.internal.WireRules.VERSION_NOT_INTEGER, e.getMessage(), v);
    }
  }

  @Test
  void unknownSessionFields_surviveARoundTripLikeOtherUnknownFields() throws Exception {
    String json = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"thread\":{\"id\":7},"
        + "\"id\":\"d\",\"topic\":\"t\"},\"payload\":{\"text\":\"hi\"}}";
    Frame frame = codec.read(utf8(json));
    assertEquals(new SessionKey("host", "d"), frame.session().orElseThrow());
    assertEquals(List.of("thread", "topic"), List.copyOf(frame.sessionExtensions().keySet()));
    assertEquals("{\"id\":7}", frame.sessionExtensions().get("thread").toString());
    String written = text(codec.write(frame.toBuilder().seq(4).build()));
    assertEquals("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"d\","
        + "\"thread\":{\"id\":7},\"topic\":\"t\"},\"seq\":4,\"payload\":{\"text\":\"hi\"}}", written);
    assertEquals(frame.withSeq(4), codec.read(new ByteArrayInputStream(utf8(written))));
  }

  @Test
  void readShared_atAnOffset_slicesTheRightBytes() {
    String json = "{\"v\":1,\"type\":\"user.message\",\"x\":[1,2],\"payload\":{\"text\":\"hi\",\"k\":{\"a\":1}}}";
    byte[] bytes = utf8(json);
    byte[] buffer = new byte[bytes.length + 10];
    Arrays.fill(buffer, (byte) '#');
    System.arraycopy(bytes, 0, buffer, 5, bytes.length);
    Frame frame = dev.tether.api.internal.ApiInternals.readShared(buffer, 5, bytes.length);
    assertEquals("{\"text\":\"hi\",\"k\":{\"a\":1}}", frame.payload().toString());
    assertEquals("[1,2]", frame.extensions().get("x").toString());
    assertEquals("{\"a\":1}", ((Payload.UserMessage) frame.payloadView()).extra().get("k").toString());
    assertEquals(codec.read(bytes), frame);
  }

  @Test
  void read_copiesFromTheCallersArray() {
    byte[] json = utf8("{\"v\":1,\"type\":\"a\",\"payload\":{\"k\":\"v\"}}");
    Frame frame = codec.read(json);
    Arrays.fill(json, (byte) ' ');
    assertEquals("{\"k\":\"v\"}", frame.payload().toString());
  }

  @Test
  void boundedBody_compactTrimsOnlyAMostlyEmptyBuffer() {
    byte[] roomy = new byte[1000];
    FrameCodec.BoundedBody trimmed = FrameCodec.BoundedBody.compact(roomy, 100);
    assertEquals(100, trimmed.buffer().length, "900 spare bytes must not stay pinned by stored frames");
    byte[] snug = new byte[110];
    assertTrue(FrameCodec.BoundedBody.compact(snug, 100).buffer() == snug, "10% spare is kept, not copied");
    assertThrows(IndexOutOfBoundsException.class, () -> FrameCodec.BoundedBody.compact(snug, 111));
  }
}
