package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.tether.api.FrameCodec;
import dev.tether.api.TetherException;
import dev.tether.images.FrameValidator;
import java.util.Map;

/**
 * Fuzzes the argument handling of {@code tether_send} and {@code tether_read} with arbitrary
 * JSON objects: a call either yields a result or fails with a coded {@link ToolError} or
 * {@link TetherException}, nothing else, and every frame that reaches the client passes the
 * consumer-side validator. In a normal {@code mvn test} Jazzer replays the seeds in
 * {@code src/test/resources/dev/tether/mcp/ToolArgumentsFuzzTestInputs/<method>}; run with
 * {@code JAZZER_FUZZ=1} to fuzz.
 */
class ToolArgumentsFuzzTest {
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  @FuzzTest(maxDuration = "30s", maxExecutions = 200_000)
  void toolCalls_failOnlyWithCodedErrors_andSendOnlyValidFrames(FuzzedDataProvider data) throws Exception {
    Map<String, Object> arguments;
    try {
      arguments = McpJson.MAPPER.readValue(data.consumeRemainingAsString(), MAP);
    } catch (Exception notAnObject) {
      return; // the SDK only ever passes a decoded JSON object
    }
    RecordingClient client = new RecordingClient();
    try {
      new SendTool(client, FrameValidator.standard()).call(arguments).get();
    } catch (ToolError | TetherException expected) {
      // a coded error the model can act on
    }
    try {
      new ReadTool(client).call(arguments).get();
    } catch (ToolError | TetherException expected) {
      // a coded error the model can act on
    }
    for (var frame : client.sent) {
      FrameValidator.standard().validate(FrameCodec.standard().write(frame));
      assertEquals("user.message", frame.type());
    }
    for (dev.tether.client.PollRequest poll : client.polls) {
      assertTrue(poll.limit() >= 1 && poll.limit() <= 200 && poll.waitMs() <= 30_000);
      assertEquals("host", poll.channel(), "tether_read reads the host channel only");
    }
  }
}
