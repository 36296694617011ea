package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tether mcp} as Claude Code runs it: a child process speaking JSON-RPC on stdio, talking
 * to {@code tether serve} and {@code tether agent} child processes over the Unix socket.
 */
class McpE2eTest {
  @TempDir Path dir;

  @Test
  void sendThenReadInALoop_getsTheAnswerAndTheChartAsMcpImage() throws Exception {
    Path socket = dir.resolve("tether.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--auto-create", "--socket", socket.toString())) {
      serve.awaitStderr("listening on", 60_000);
      try (ChildJvm agent = ChildJvm.start(dir, "agent", Map.of(), "agent", "--host", socket.toString(), "--instance", "vm")) {
        agent.awaitStderr("ready on", 60_000);
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
            "-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp", "--host", "unix:" + socket);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(dir.resolve("mcp.err").toFile());
        pb.environment().put("HOME", dir.toString());
        Process mcp = pb.start();
        try (OutputStream in = mcp.getOutputStream();
            BufferedReader out = new BufferedReader(new InputStreamReader(mcp.getInputStream(), StandardCharsets.UTF_8))) {
          Rpc rpc = new Rpc(in, out);
          JsonNode init = rpc.call("initialize", Json.MAPPER.readTree(
              "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}"));
          assertEquals("tether", init.path("serverInfo").path("name").asText());
          rpc.notify("notifications/initialized");
          List<String> tools = new ArrayList<>();
          rpc.call("tools/list", Json.MAPPER.createObjectNode()).path("tools").forEach(t -> tools.add(t.path("name").asText()));
          assertTrue(tools.containsAll(List.of("tether_send", "tether_read")), tools.toString());

          JsonNode sent = rpc.tool("tether_send", "{\"instance\":\"vm\",\"text\":\"chart 3 1 2\",\"session_id\":\"mcp-1\"}");
          JsonNode receipt = Json.MAPPER.readTree(sent.path("content").path(0).path("text").asText());
          long cursor = receipt.path("ingress_seq").asLong();
          assertEquals("mcp-1", receipt.path("session_id").asText());

          JsonNode done = null;
          JsonNode image = null;
          for (int i = 0; i < 30 && done == null; i++) {
            JsonNode read = rpc.tool("tether_read", "{\"instance\":\"vm\",\"session_id\":\"mcp-1\",\"after_seq\":" + cursor + ",\"wait_ms\":10000}");
            assertFalse(read.path("isError").asBoolean(), read.toString());
            JsonNode page = Json.MAPPER.readTree(read.path("content").path(0).path("text").asText());
            for (JsonNode f : page.path("frames")) {
              assertFalse(f.path("type").asText().startsWith("user."), "egress only: " + f);
              if ("assistant.done".equals(f.path("type").asText())) {
                done = f;
                image = read.path("content").path(1);
              }
            }
            cursor = page.path("next_seq").asLong();
          }
          assertTrue(done != null, "an assistant.done arrived");
          assertEquals(receipt.path("msg_id").asText(), done.path("msg_id").asText());
          assertEquals(0, done.path("payload").path("images").path(0).path("_mcp_index").asInt(-1), done.toString());
          assertEquals("image", image.path("type").asText());
          assertEquals("image/png", image.path("mimeType").asText());

          JsonNode refused = rpc.tool("tether_send", "{\"instance\":\"vm\",\"text\":\"x\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"R0lGODlhAQABAAAAACw=\"}]}");
          assertTrue(refused.path("isError").asBoolean(), refused.toString());
          assertTrue(refused.path("content").path(0).path("text").asText().contains("MEDIA_TYPE_MISMATCH"), refused.toString());
        }
        assertTrue(mcp.waitFor(30, TimeUnit.SECONDS), "mcp exits when stdin closes");
        assertEquals(0, mcp.exitValue());
      }
    }
  }

  /** A minimal JSON-RPC client over the child's stdio. */
  private static final class Rpc {
    private final OutputStream in;
    private final BufferedReader out;
    private int id;

    Rpc(OutputStream in, BufferedReader out) {
      this.in = in;
      this.out = out;
    }

    JsonNode call(String method, JsonNode params) throws Exception {
      ObjectNode req = Json.MAPPER.createObjectNode().put("jsonrpc", "2.0").put("id", ++id).put("method", method);
      req.set("params", params);
      write(req);
      while (true) {
        String line = out.readLine();
        if (line == null) {
          throw new IllegalStateException("mcp closed stdout");
        }
        JsonNode msg = Json.MAPPER.readTree(line);
        if (msg.path("id").asInt(-1) == id) {
          if (msg.has("error")) {
            throw new IllegalStateException(msg.toString());
          }
          return msg.path("result");
        }
      }
    }

    JsonNode tool(String name, String arguments) throws Exception {
      ObjectNode params = Json.MAPPER.createObjectNode().put("name", name);
      params.set("arguments", Json.MAPPER.readTree(arguments));
      return call("tools/call", params);
    }

    void notify(String method) throws Exception {
      write(Json.MAPPER.createObjectNode().put("jsonrpc", "2.0").put("method", method));
    }

    private void write(JsonNode msg) throws Exception {
      in.write((msg.toString() + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    }
  }
}
