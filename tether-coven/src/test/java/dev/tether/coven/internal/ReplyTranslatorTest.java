package dev.tether.coven.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.images.FrameValidator;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyTranslatorTest {
  static final SessionKey S = new SessionKey("coven", "t");
  final ReplyTranslator t = new ReplyTranslator("r", FrameValidator.standard());

  static Frame raw(String type, String json) {
    return Frame.builder(type).version(1).session(S).msgId("m").payload(RawJson.of(json)).build();
  }

  @Test
  void unpaddedBase64InDone_decodesToTheSameBytes_andTheMissedTailOfTheTextIsSent() {
    byte[] png = UserMessageTranslatorTest.png(20); // 20 bytes: base64 ends in one '=' when padded
    String unpadded = Base64.getEncoder().withoutPadding().encodeToString(png);
    assertEquals(List.of("Here"), t.onFrame(Frames.assistantDelta(S, "m", "Here")).stream().map(MessageResponse::getText).toList());
    List<MessageResponse> out = t.onFrame(raw("assistant.done",
        "{\"text\":\"Here it is\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + unpadded + "\"}],\"x\":[1,{}]}"));
    assertEquals(" it is", out.get(0).getText());
    assertArrayEquals(png, out.get(1).getFile().getData().toByteArray());
    assertEquals("Here it is", out.get(2).getDone().getFullResponse());
    assertTrue(t.finished());
    assertTrue(t.onFrame(Frames.assistantDelta(S, "m", "late")).isEmpty(), "nothing after the terminal event");
  }

  @Test
  void doneReadFromWireBytesWithSpacedImages_decodesEachImageInPlace() {
    byte[] first = UserMessageTranslatorTest.png(4000);
    byte[] second = UserMessageTranslatorTest.png(31);
    String wire = "{\"v\":1,\"type\":\"assistant.done\",\"session\":{\"channel\":\"coven\",\"id\":\"t\"},"
        + "\"msg_id\":\"m\",\"payload\": { \"images\" : [ { \"data\" : \"" + Base64.getEncoder().encodeToString(first)
        + "\" , \"media_type\" : \"image/png\" } , {\"media_type\":\"image/png\",\"data\":\""
        + Base64.getEncoder().withoutPadding().encodeToString(second) + "\"\n}\t] , \"text\" : \"two\" } }";
    Frame frame = FrameCodec.standard().read(wire.getBytes(StandardCharsets.UTF_8));
    List<MessageResponse> out = t.onFrame(frame);
    assertArrayEquals(first, out.get(1).getFile().getData().toByteArray());
    assertEquals("image-1.png", out.get(1).getFile().getFilename());
    assertArrayEquals(second, out.get(2).getFile().getData().toByteArray());
    assertEquals("two", out.get(3).getDone().getFullResponse());
  }

  @Test
  void doneWhoseImageBreaksTheRules_endsInErrorWithTheTetherCode() {
    String gifAsPng = Base64.getEncoder().encodeToString("GIF89a-not-a-png".getBytes());
    List<MessageResponse> out = t.onFrame(raw("assistant.done",
        "{\"text\":\"x\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + gifAsPng + "\"}]}"));
    assertEquals(1, out.size());
    assertTrue(out.get(0).getError().startsWith("MEDIA_TYPE_MISMATCH: the agent's assistant.done was refused"), out.get(0).getError());
  }

  @Test
  void cancelledDone_endsInCancelled_withUsageBeforeIt() {
    List<MessageResponse> out = t.onFrame(raw("assistant.done",
        "{\"text\":\"\",\"usage\":{\"input_tokens\":3,\"thinking_tokens\":7},\"cancelled\":true}"));
    assertEquals(3, out.get(0).getUsage().getInputTokens());
    assertEquals(7, out.get(0).getUsage().getThinkingTokens());
    assertTrue(out.get(1).hasCancelled());
  }

  @Test
  void reasoningAndPresence_becomeThinking_idlePresenceIsSkipped() {
    assertEquals("weighing options", t.onFrame(raw("reasoning.delta", "{\"text\":\"weighing options\"}")).get(0).getThinking());
    assertEquals("thinking", t.onFrame(Frames.presence(S, "m", "thinking")).get(0).getThinking());
    assertTrue(t.onFrame(Frames.presence(S, "m", "idle")).isEmpty());
  }

  @Test
  void errorFrameWithoutCode_stillEndsInOneError() {
    List<MessageResponse> out = t.onFrame(raw("error", "{\"message\":\"model overloaded\"}"));
    assertEquals("AGENT_ERROR: model overloaded", out.get(0).getError());
  }
}
