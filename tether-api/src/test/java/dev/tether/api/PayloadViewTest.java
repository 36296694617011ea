package dev.tether.api;

import static dev.tether.api.FrameCodecTest.text;
import static dev.tether.api.FrameCodecTest.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The typed payload views, read from the wire and written canonically. */
class PayloadViewTest {
  private static final FrameCodec CODEC = FrameCodec.standard();
  private static final Instant TS = Instant.parse("2026-01-02T03:04:05Z");
  private static final Image PNG = new Image(MediaType.PNG, "iVBORw0KGgo=");
  private static final Image WEBP = new Image(MediaType.WEBP, "UklGRgAAAABXRUJQ");

  private static Payload view(String type, String payload) {
    return CODEC.read(utf8("{\"v\":1,\"type\":\"" + type + "\",\"payload\":" + payload + "}")).payloadView();
  }

  private static String canonical(Payload payload) {
    Frame frame = Frame.builder(payload.frameType()).version(1).ts(TS).session(SessionKey.host("default"))
        .msgId("m-1").payload(payload).build();
    return text(CODEC.write(frame));
  }

  private static final String ENVELOPE = "{\"v\":1,\"ts\":\"2026-01-02T03:04:05Z\","
      + "\"session\":{\"channel\":\"host\",\"id\":\"default\"},\"msg_id\":\"m-1\",\"payload\":";

  private static String expectedFrame(String type, String payload) {
    return ENVELOPE.replace("{\"v\":1,", "{\"v\":1,\"type\":\"" + type + "\",") + payload + "}";
  }

  @Test
  void userMessage_withEmptyTextImagesAndUser() {
    Payload p = view("user.message", "{\"text\":\"\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"},"
        + "{\"media_type\":\"image/webp\",\"data\":\"UklGRgAAAABXRUJQ\"}],\"user\":{\"id\":\"123\",\"name\":\"Alice\"}}");
    Payload.UserMessage m = assertInstanceOf(Payload.UserMessage.class, p);
    assertEquals("", m.text());
    assertEquals(List.of(PNG, WEBP), m.images());
    assertEquals(Optional.of(new User("123", "Alice")), m.user());
    assertEquals(expectedFrame("user.message", "{\"text\":\"\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"},"
        + "{\"media_type\":\"image/webp\",\"data\":\"UklGRgAAAABXRUJQ\"}],\"user\":{\"id\":\"123\",\"name\":\"Alice\"}}"), canonical(m));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"id\":987654321,\"name\":\"Bob\"} | 987654321 | Bob",
      "{\"id\":\"x\"}                      | x         | ''",
      "{\"name\":\"Eve\",\"id\":null}      | ''        | Eve",
      "{\"id\":-5,\"name\":\"N\",\"extra\":[1]} | -5   | N"})
  void userMessage_userIdMayBeANumberOrMissing(String user, String id, String name) {
    Payload.UserMessage m = (Payload.UserMessage) view("user.message", "{\"text\":\"t\",\"user\":" + user + "}");
    assertEquals(new User(id, name), m.user().orElseThrow());
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"id\":1.5}", "{\"id\":true}", "{\"id\":{}}", "{\"name\":[]}", "\"alice\"", "7"})
  void userMessage_userOfTheWrongShape_isMalformed(String user) {
    TetherException e = assertThrows(TetherException.class, () -> view("user.message", "{\"text\":\"t\",\"user\":" + user + "}"));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
  }

  @Test
  void userMessage_withoutImagesOrUser_isTheTextOnlyForm() {
    Payload.UserMessage m = (Payload.UserMessage) view("user.message", "{\"text\":\"Hello\"}");
    assertEquals(Payload.UserMessage.of("Hello", List.of()), m);
    assertEquals(expectedFrame("user.message", "{\"text\":\"Hello\"}"), canonical(m));
    // "images": null and [] mean no images; neither is written back.
    assertEquals(m, view("user.message", "{\"text\":\"Hello\",\"images\":null,\"user\":null}"));
    assertEquals(m, view("user.message", "{\"images\":[],\"text\":\"Hello\"}"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"{}", "{\"text\":null}", "{\"text\":1}", "{\"text\":[\"a\"]}", "{\"other\":\"x\"}"})
  void textTypes_withoutStringText_areMalformed(String payload) {
    for (String type : List.of("user.message", "assistant.delta", "assistant.done", "assistant.message")) {
      TetherException e = assertThrows(TetherException.class, () -> view(type, payload), type);
      assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), type);
      assertTrue(e.getMessage().contains("text"), e.getMessage());
    }
  }

  @Test
  void assistantDelta_isTextOnly() {
    Payload.AssistantDelta d = (Payload.AssistantDelta) view("assistant.delta", "{\"text\":\"Here's\",\"i\":3}");
    assertEquals("Here's", d.text());
    assertEquals("3", d.extra().get("i").toString());
    assertEquals(List.of(), d.images());
    assertEquals(expectedFrame("assistant.delta", "{\"text\":\"Here's\",\"i\":3}"), canonical(d));
  }

  @ParameterizedTest
  @ValueSource(strings = {"[]", "[{\"media_type\":\"image/png\",\"data\":\"AAAA\"}]", "[1]"})
  void assistantDelta_withImages_isRejected(String images) {
    TetherException e = assertThrows(TetherException.class,
        () -> view("assistant.delta", "{\"text\":\"t\",\"images\":" + images + "}"));
    assertEquals(ErrorCode.IMAGES_NOT_ALLOWED, e.code());
    assertTrue(e.getMessage().contains("assistant.done"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"{}", "\"x\"", "5"})
  void assistantDelta_withImagesThatAreNotAnArray_isMalformedFirst(String images) {
    TetherException e = assertThrows(TetherException.class,
        () -> view("assistant.delta", "{\"text\":\"t\",\"images\":" + images + "}"));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
  }

  @Test
  void assistantDelta_withNullImages_isTheSameAsNone() {
    assertEquals(Payload.AssistantDelta.of("t"), view("assistant.delta", "{\"text\":\"t\",\"images\":null}"));
  }

  @Test
  void assistantDone_withAndWithoutImages() {
    Payload.AssistantDone d = (Payload.AssistantDone) view("assistant.done",
        "{\"images\":[{\"data\":\"iVBORw0KGgo=\",\"media_type\":\"image/png\"}],\"text\":\"Here is the chart.\"}");
    assertEquals(Payload.AssistantDone.of("Here is the chart.", List.of(PNG)), d);
    assertEquals(expectedFrame("assistant.done",
        "{\"text\":\"Here is the chart.\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}]}"), canonical(d));
    assertEquals(Payload.AssistantDone.of("done", List.of()), view("assistant.done", "{\"text\":\"done\"}"));
  }

  @Test
  void assistantMessage_withImages() {
    Payload.AssistantMessage m = (Payload.AssistantMessage) view("assistant.message",
        "{\"text\":\"look\",\"images\":[{\"media_type\":\"image/webp\",\"data\":\"UklGRgAAAABXRUJQ\"}]}");
    assertEquals(Payload.AssistantMessage.of("look", List.of(WEBP)), m);
    assertEquals(expectedFrame("assistant.message",
        "{\"text\":\"look\",\"images\":[{\"media_type\":\"image/webp\",\"data\":\"UklGRgAAAABXRUJQ\"}]}"), canonical(m));
  }

  @Test
  void statusPresence_needsAState() {
    Payload.Presence p = (Payload.Presence) view("status.presence", "{\"state\":\"thinking\"}");
    assertEquals(Payload.Presence.of(Payload.Presence.THINKING), p);
    assertEquals(expectedFrame("status.presence", "{\"state\":\"thinking\"}"), canonical(p));
    for (String bad : List.of("{}", "{\"state\":1}", "{\"state\":null}")) {
      assertEquals(ErrorCode.MALFORMED_FRAME, assertThrows(TetherException.class, () -> view("status.presence", bad)).code());
    }
    // "text" is not modelled on presence; it is kept as an unknown field.
    assertEquals("\"x\"", ((Payload.Presence) view("status.presence", "{\"state\":\"idle\",\"text\":\"x\"}")).extra().get("text").toString());
  }

  @Test
  void controlCancel_carriesOnlyUnknownFields() {
    assertEquals(new Payload.Cancel(Map.of()), view("control.cancel", "{}"));
    Payload.Cancel c = (Payload.Cancel) view("control.cancel", "{\"reason\":\"user\"}");
    assertEquals("\"user\"", c.extra().get("reason").toString());
    assertEquals(expectedFrame("control.cancel", "{\"reason\":\"user\"}"), canonical(c));
    // A cancel frame without a payload still has a view.
    assertEquals(new Payload.Cancel(Map.of()), CODEC.read(utf8("{\"v\":1,\"type\":\"control.cancel\"}")).payloadView());
  }

  @ParameterizedTest
  @ValueSource(strings = {"reasoning.delta", "event.ack", "error", "custom.thing", "user.typing"})
  void unknownTypes_passThroughAsOther(String type) {
    String payload = "{ \"images\" : 5, \"text\":[1] }";
    Payload.Other o = assertInstanceOf(Payload.Other.class, view(type, payload));
    assertEquals(type, o.frameType());
    assertEquals(payload, o.raw().toString());
    assertEquals(expectedFrame(type, payload), canonical(o));
  }

  @Test
  void imageData_withARawControlCharacter_isMalformed_andLongPlainDataReadsWhole() {
    for (String bad : List.of("AA\tA", "AAAAAAAAAAAAAAAA\u0001AAAA", "AAAAAAAA\u001f", "AAAA\nAAAA")) {
      TetherException e = assertThrows(TetherException.class, () -> view("user.message",
          "{\"text\":\"\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + bad + "\"}]}"), bad);
      assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), bad);
    }
    String data = "iVBORw0KGgo=".repeat(10_000);
    Payload.UserMessage m = assertInstanceOf(Payload.UserMessage.class, view("user.message",
        "{\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + data + "\",\"size\":1}],\"text\":\"t\"}"));
    assertEquals(List.of(new Image(MediaType.PNG, data)), m.images());
    assertEquals("t", m.text());
  }

  @Test
  void images_withBadMediaTypeOrShape_nameTheImage() {
    String ok = "{\"media_type\":\"image/png\",\"data\":\"AAAA\"}";
    record Case(String image, ErrorCode code) {}
    List<Case> cases = List.of(
        new Case("{\"media_type\":\"image/bmp\",\"data\":\"AAAA\"}", ErrorCode.UNSUPPORTED_MEDIA_TYPE),
        new Case("{\"media_type\":\"IMAGE/PNG\",\"data\":\"AAAA\"}", ErrorCode.UNSUPPORTED_MEDIA_TYPE),
        new Case("{\"data\":\"AAAA\"}", ErrorCode.UNSUPPORTED_MEDIA_TYPE),
        new Case("{\"media_type\":\"image/png\"}", ErrorCode.MALFORMED_FRAME),
        new Case("{\"media_type\":\"image/png\",\"data\":7}", ErrorCode.MALFORMED_FRAME),
        new Case("{\"media_type\":[],\"data\":\"AAAA\"}", ErrorCode.MALFORMED_FRAME),
        new Case("\"iVBORw0KGgo=\"", ErrorCode.MALFORMED_FRAME));
    for (Case c : cases) {
      for (String type : List.of("user.message", "assistant.done", "assistant.message")) {
        TetherException e = assertThrows(TetherException.class,
            () -> view(type, "{\"text\":\"\",\"images\":[" + ok + "," + c.image + "]}"), c.image);
        assertEquals(c.code, e.code(), c.image);
        assertEquals(1, e.imageIndex().orElseThrow(), c.image);
        assertTrue(e.getMessage().startsWith("image 1"), e.getMessage());
      }
    }
    TetherException e = assertThrows(TetherException.class,
        () -> view("user.message", "{\"text\":\"\",\"images\":[{\"media_type\":\"image/tiff\",\"data\":\"AAAA\"}]}"));
    assertTrue(e.getMessage().contains("image/png, image/jpeg, image/gif or image/webp"), e.getMessage());
    assertEquals(ErrorCode.MALFORMED_FRAME,
        assertThrows(TetherException.class, () -> view("user.message", "{\"text\":\"\",\"images\":{}}")).code());
  }

  @Test
  void frameBuilder_rejectsAPayloadOfAnotherType() {
    assertThrows(IllegalArgumentException.class,
        () -> Frame.builder("assistant.done").payload(Payload.AssistantDelta.of("x")));
  }

  @Test
  void extra_mayNotShadowAModelledField() {
    assertThrows(IllegalArgumentException.class,
        () -> new Payload.UserMessage("t", List.of(), Optional.empty(), Map.of("images", RawJson.of("[]"))));
    assertThrows(IllegalArgumentException.class, () -> new Payload.Presence("idle", Map.of("state", RawJson.of("1"))));
  }

  @Test
  void imageData_readsAsItsJsonText_whateverEscapesOrNonAsciiItHolds() throws Exception {
    // Plain base64 is copied from the payload's bytes; anything else goes through the parser.
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    String[] pieces = {"iVBO", "Rw0K", "+/", "=", "\\/", "\\u0041", "\\\"", "\\\\", "\u00e9", "\u0141", "\uD83D\uDE00", " "};
    java.util.Random random = new java.util.Random(24);
    for (int round = 0; round < 2_000; round++) {
      StringBuilder data = new StringBuilder();
      for (int n = random.nextInt(12); n > 0; n--) {
        data.append(pieces[random.nextInt(random.nextInt(4) == 0 ? pieces.length : 4)]);
      }
      String image = "{\"media_type\":\"image/png\",\"data\":\"" + data + "\"}";
      String expected = json.readTree(image).get("data").asText();
      Payload.AssistantDone done = (Payload.AssistantDone) view("assistant.done",
          "{\"text\":\"t\",\"images\":[" + image + "," + image + "],\"after\":[\"" + data + "\"]}");
      assertEquals(List.of(new Image(MediaType.PNG, expected), new Image(MediaType.PNG, expected)), done.images(), image);
      assertEquals("[\"" + data + "\"]", done.extra().get("after").toString(), image);
    }
  }
}
