package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.lists;

import java.nio.charset.StandardCharsets;
import dev.tether.api.internal.ApiInternals;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * {@link InlineAnswer#read}, the answer read that leaves each image's base64 in the payload,
 * reads every payload exactly as {@link Frame#payloadView()} does: the same text and images, or the
 * same error, whatever the payload holds.
 */
class ReadAnswerTest {
  private static final FrameCodec CODEC = FrameCodec.standard();

  private static Frame frame(String type, String payload) {
    return CODEC.read(("{\"v\":1,\"type\":\"" + type + "\",\"payload\":" + payload + "}").getBytes(StandardCharsets.UTF_8));
  }

  /** The payload view's text and images, or its error, as one comparable string. */
  private static String viewVerdict(Frame frame) {
    try {
      Payload view = frame.payloadView();
      return view instanceof Payload.AssistantDone d ? d.text() + " " + d.images()
          : ((Payload.AssistantMessage) view).text() + " " + ((Payload.AssistantMessage) view).images();
    } catch (TetherException e) {
      return e.code() + ": " + e.getMessage();
    }
  }

  private static String answerVerdict(Frame frame) {
    try {
      InlineAnswer answer = InlineAnswer.read(frame);
      return answer.text() + " " + answer.images().stream().map(InlineImage::toImage).toList();
    } catch (TetherException e) {
      return e.code() + ": " + e.getMessage();
    }
  }

  /** JSON pieces of a payload: valid and broken images, escapes, wrong types, unknown fields. */
  private static Gen<String> payloads() {
    List<String> images = List.of("{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}",
        "{\"media_type\":\"image/png\",\"data\":\"\\u0069VBORw0KGgo\\/=\"}",
        "{\"data\":\"R0lGODlh\",\"media_type\":\"image/gif\",\"ref\":\"x\"}",
        "{\"media_type\":\"image/bmp\",\"data\":\"Qk0=\"}", "{\"media_type\":\"image/png\"}",
        "{\"media_type\":\"image/png\",\"data\":7}", "{\"media_type\":\"image/png\",\"data\":\"\u00e9t\u00e9\"}",
        "{\"media_type\":\"image/png\",\"data\":\"\"}", "[]", "null", "\"x\"");
    Gen<String> list = lists().of(arbitrary().pick(images)).ofSizeBetween(0, 4).map(l -> "[" + String.join(",", l) + "]");
    Gen<String> imagesField = arbitrary().pick(List.of("", ",\"images\":", ",\"images\":null", ",\"images\":{}"));
    Gen<String> text = arbitrary().pick(List.of("\"text\":\"hi\"", "\"text\":\"caf\\u00e9 \\\"q\\\"\"", "\"text\":1",
        "\"other\":{\"a\":[1]}", "\"text\":\"\""));
    return text.zip(imagesField, list, (t, f, l) -> "{" + t + (f.equals(",\"images\":") ? f + l : f) + "}");
  }

  @Test
  void readAnswer_readsEveryPayloadExactlyAsThePayloadViewDoes() {
    qt().withFixedSeed(24L).withExamples(2000)
        .forAll(arbitrary().pick(List.of(FrameTypes.ASSISTANT_DONE, FrameTypes.ASSISTANT_MESSAGE)), payloads())
        .checkAssert((type, payload) -> {
          Frame frame = frame(type, payload);
          assertEquals(viewVerdict(frame), answerVerdict(frame), payload);
        });
  }

  @Test
  void plainBase64_staysInThePayloadsBytes_escapedBase64_isItsText() {
    Frame frame = frame(FrameTypes.ASSISTANT_DONE, "{\"text\":\"t\",\"images\":["
        + "{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"},{\"media_type\":\"image/png\",\"data\":\"iVBOR\\/w\"}]}");
    List<InlineImage> images = InlineAnswer.read(frame).images();
    InlineImage plain = images.get(0);
    assertTrue(plain.isPlain());
    assertEquals("iVBORw0KGgo=", plain.toImage().data());
    assertArrayEquals(Base64.getDecoder().decode("iVBORw0KGgo="), plain.decode());
    assertFalse(images.get(1).isPlain());
    assertEquals("iVBOR/w", images.get(1).toImage().data());
    assertThrows(IllegalStateException.class, () -> ApiInternals.plainBase64(images.get(1)));
  }

  @Test
  void readAnswer_refusesFramesThatAreNotAnswers() {
    assertThrows(IllegalArgumentException.class,
        () -> InlineAnswer.read(frame(FrameTypes.USER_MESSAGE, "{\"text\":\"hi\"}")));
  }
}
