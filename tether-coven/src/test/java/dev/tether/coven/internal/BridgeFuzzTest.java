package dev.tether.coven.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.ServerMessage;
import dev.tether.images.FrameValidator;
import java.util.List;

/**
 * Fuzzes both directions of the bridge with outside input. Whatever the gateway sends becomes a
 * frame the validator accepts or a {@link TetherException}; whatever frames the agent writes
 * become events with at most one terminal event, and nothing else escapes. In a normal
 * {@code mvn test} Jazzer runs each once; run with {@code JAZZER_FUZZ=1} to fuzz.
 */
class BridgeFuzzTest {
  private static final String[] TYPES = {"assistant.delta", "assistant.done", "reasoning.delta", "status.presence", "error",
      "event.usage", "event.tool_state", "assistant.message", "x.other"};
  private final UserMessageTranslator translator = new UserMessageTranslator(FrameValidator.standard());

  @FuzzTest(maxDuration = "30s", maxExecutions = 100_000)
  void gatewayBytes_becomeAValidFrameOrATetherException(FuzzedDataProvider data) {
    ServerMessage message;
    try {
      message = ServerMessage.parseFrom(data.consumeRemainingAsBytes());
    } catch (InvalidProtocolBufferException notProtobuf) {
      return; // gRPC fails the stream before the bridge sees it
    }
    if (!message.hasSendMessage()) {
      return;
    }
    try {
      Frame frame = translator.toFrame(message.getSendMessage(), "host-1", List.of());
      FrameValidator.standard().validate(frame);
    } catch (TetherException expected) {
      // a bad attachment, reported with its code
    }
  }

  @FuzzTest(maxDuration = "30s", maxExecutions = 100_000)
  void agentFrames_becomeEventsWithAtMostOneTerminal(FuzzedDataProvider data) {
    ReplyTranslator replies = new ReplyTranslator("r", FrameValidator.standard());
    int terminals = 0;
    int n = data.consumeInt(0, 6);
    for (int i = 0; i < n; i++) {
      String type = TYPES[data.consumeInt(0, TYPES.length - 1)];
      RawJson payload;
      try {
        payload = RawJson.of(data.consumeString(200));
      } catch (RuntimeException notJson) {
        continue; // hosts store only frames whose payload parsed
      }
      Frame frame = Frame.builder(type).version(1).session(new SessionKey("coven", "t")).msgId("m").payload(payload).build();
      for (MessageResponse r : replies.onFrame(frame)) {
        if (ReplyTranslator.isTerminal(r)) {
          terminals++;
        }
      }
    }
    assertTrue(terminals <= 1, "terminal events: " + terminals);
  }
}
