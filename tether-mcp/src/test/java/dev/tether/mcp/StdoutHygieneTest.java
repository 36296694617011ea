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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The child server's raw stdout, read without any MCP library: every line is one JSON-RPC 2.0
 * message, even when code in the process prints to {@code System.out}; such output shows up on
 * stderr instead. Lines on stdin that are not JSON-RPC get error responses and the server goes on.
 * Closing stdin ends the process.
 */
class StdoutHygieneTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void stdout_carriesOnlyJsonRpc_strayPrintsGoToStderr_garbageIsAnswered_andEofStopsTheServer() throws Exception {
    List<String> command = new ArrayList<>(ChildServer.javaCommand());
    command.add("--stray-stdout");
    Process process = new ProcessBuilder(command).start();
    CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
    try {
      BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      OutputStream stdin = process.getOutputStream();

      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
      JsonNode init = response(stdout, 1);
      assertEquals("tether", init.get("result").get("serverInfo").get("name").asText());
      write(stdin, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      // Garbage does not end the server: each bad line gets an error response and is skipped.
      write(stdin, "this is not json");
      write(stdin, "");
      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":77}");
      JsonNode invalid = response(stdout, 77);
      assertEquals(-32600, invalid.get("error").get("code").asInt(), invalid.toString());
      assertTrue(seen.stream().anyMatch(m -> m.path("error").path("code").asInt() == -32700 && m.get("id").isNull()),
          "a parse error answers the line that is not JSON: " + seen);
      // A message makes the test server print to System.out (see TestServerMain).
      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"tether_send\","
          + "\"arguments\":{\"instance\":\"agent1\",\"text\":\"hi\"}}}");
      JsonNode sent = response(stdout, 2);
      assertEquals(false, sent.get("result").get("isError").asBoolean(), sent.toString());
      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"tether_read\","
          + "\"arguments\":{\"instance\":\"agent1\",\"wait_ms\":10000,\"types\":[\"assistant.done\"]}}}");
      JsonNode read = response(stdout, 3);
      assertTrue(read.get("result").get("content").get(0).get("text").asText().contains("first answer to: hi"));
      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}");
      assertEquals(10, response(stdout, 4).get("result").get("tools").size());

      stdin.close();
      assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the server should exit when stdin ends");
      assertEquals(0, process.exitValue());
      String rest = readAll(process.getInputStream());
      for (String line : rest.split("\n")) {
        if (!line.isBlank()) {
          assertEquals("2.0", JSON.readTree(line).get("jsonrpc").asText(), line);
        }
      }
      assertTrue(stderr.get(30, TimeUnit.SECONDS).contains(TestServerMain.STRAY_LINE), "stray print on stderr");
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void linesOverTheLimit_areAnsweredAndSkipped_andTheServerKeepsServing() throws Exception {
    int maxFrameBytes = 1 << 20;
    int maxLineChars = TetherMcpServer.maxLineChars(maxFrameBytes);
    List<String> command = new ArrayList<>(ChildServer.javaCommand());
    command.add("--max-frame-bytes=" + maxFrameBytes);
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      OutputStream stdin = process.getOutputStream();
      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
      response(stdout, 1);
      write(stdin, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

      // A tool call one character over the limit, its id last (as the TypeScript SDK writes it),
      // ending in \r\n: a coded tool error, found without holding the line.
      String head = "{\"method\":\"tools/call\",\"params\":{\"name\":\"tether_send\",\"arguments\":{\"instance\":\"agent1\","
          + "\"text\":\"big\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"";
      String tail = "\"}]}},\"jsonrpc\":\"2.0\",\"id\":\"big-1\"}";
      String tooLong = head + "A".repeat(maxLineChars + 1 - head.length() - tail.length()) + tail;
      assertEquals(maxLineChars + 1, tooLong.length());
      stdin.write((tooLong + "\r\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
      JsonNode big = response(stdout, "big-1");
      assertTrue(big.get("result").get("isError").asBoolean(), big.toString());
      JsonNode error = JSON.readTree(big.get("result").get("content").get(0).get("text").asText()).get("error");
      assertEquals("FRAME_TOO_LARGE", error.get("code").asText(), error.toString());

      // Any other message over the limit is an invalid request; one that is not even JSON has no id.
      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"pad\":\""
          + "x".repeat(maxLineChars) + "\"}}");
      assertEquals(-32600, response(stdout, 5).get("error").get("code").asInt());
      write(stdin, "y".repeat(maxLineChars + 10));

      // A tool call just within the limit reaches the tool, which applies the frame limit.
      String within = head + "A".repeat(maxLineChars - head.length() - tail.length()) + tail.replace("big-1", "big-2");
      assertEquals(maxLineChars, within.length());
      write(stdin, within);
      JsonNode tool = response(stdout, "big-2");
      assertTrue(tool.get("result").get("isError").asBoolean(), tool.toString());

      write(stdin, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"tether_send\","
          + "\"arguments\":{\"instance\":\"agent1\",\"text\":\"still here\"}}}");
      JsonNode sent = response(stdout, 6);
      assertEquals(false, sent.get("result").get("isError").asBoolean(), sent.toString());
      assertTrue(seen.stream().anyMatch(m -> m.path("error").path("code").asInt() == -32600 && m.get("id").isNull()),
          "the line that is not JSON is answered without an id: " + seen);
    } finally {
      process.destroyForcibly();
    }
  }

  private static void write(OutputStream stdin, String line) throws Exception {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  /** Reads lines until the response with {@code id}; every line read must be JSON-RPC 2.0. */
  private final List<JsonNode> seen = new ArrayList<>();

  private JsonNode response(BufferedReader stdout, int id) throws Exception {
    return response(stdout, String.valueOf(id));
  }

  private JsonNode response(BufferedReader stdout, String id) throws Exception {
    while (true) {
      String line = stdout.readLine();
      if (line == null) {
        throw new AssertionError("stdout ended before the response to request " + id);
      }
      JsonNode message;
      try {
        message = JSON.readTree(line);
      } catch (Exception e) {
        throw new AssertionError("stdout carried a line that is not JSON: " + line, e);
      }
      assertEquals("2.0", message.path("jsonrpc").asText(), "not JSON-RPC 2.0: " + line);
      seen.add(message);
      if (message.has("id") && message.get("id").asText().equals(id)) {
        return message;
      }
    }
  }

  private static String readAll(java.io.InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
