package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When stdin ends while calls are in progress, the stdio server answers them before it exits
 * (bounded by {@link StdioServer#DEFAULT_DRAIN}): a client that writes its last request and closes
 * its end still gets the answer.
 */
class StdinEndDrainTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void stdinEndsDuringALongPoll_theCallIsStillAnswered_thenTheServerExits() throws Exception {
    Process process = new ProcessBuilder(ChildServer.javaCommand()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      OutputStream stdin = process.getOutputStream();
      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
      write(stdin, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      // A long-poll on a session nobody answers: it times out after 1.5 s, well after stdin ends.
      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"tether_read\","
          + "\"arguments\":{\"instance\":\"agent1\",\"session_id\":\"quiet\",\"wait_ms\":1500}}}");
      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"tether_send_stream\","
          + "\"arguments\":{\"instance\":\"agent1\",\"session_id\":\"last\",\"text\":\"bye\"}}}");
      stdin.close();
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the server exits after answering");
      List<JsonNode> messages = new ArrayList<>();
      BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      for (String line; (line = stdout.readLine()) != null; ) {
        if (!line.isBlank()) {
          messages.add(JSON.readTree(line));
        }
      }
      JsonNode poll = byId(messages, 2);
      assertTrue(JSON.readTree(poll.get("result").get("content").get(0).get("text").asText()).get("timed_out").asBoolean(),
          poll.toString());
      JsonNode streamed = byId(messages, 3);
      assertTrue(streamed.get("result").get("content").get(0).get("text").asText().contains(ScriptedResponder.FIRST_PREFIX + "bye"),
          streamed.toString());
      assertEquals(0, process.exitValue());
    } finally {
      process.destroyForcibly();
    }
  }

  private static JsonNode byId(List<JsonNode> messages, int id) {
    return messages.stream().filter(m -> m.path("id").asInt(-1) == id).findFirst()
        .orElseThrow(() -> new AssertionError("no answer to request " + id + " in " + messages));
  }

  private static void write(OutputStream stdin, String line) throws Exception {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }
}
