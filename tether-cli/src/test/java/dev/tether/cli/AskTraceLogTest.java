package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.SendMessage;
import dev.tether.coven.internal.proto.ServerMessage;
import dev.tether.coven.testing.FakeGateway;
import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One ask followed by its {@code msg_id} through the JSON logs of real processes: {@code tether
 * serve --with-agent} (host and demo agent) and a bridge ({@code tether telegram} on a Bot-API-shaped
 * server, {@code tether coven} on a grpc-java gateway), all with {@code --log-format json
 * --log-level debug}. Each must log the ask under the same {@code msg_id}: the bridge when it posts
 * it, the host when it accepts the {@code user.message} and the agent's {@code assistant.done}, the
 * agent when it answers, and the bridge again when the answer leaves. Every stderr line must be one
 * JSON object.
 */
class AskTraceLogTest {
  private static final long START_MS = 60_000;
  private static final long CHAT = 5151L;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void telegramAsk_isFollowedByItsMsgId_throughBridgeHostAndAgentLogs() throws Exception {
    Path socket = dir.resolve("tether.sock");
    Path tokenFile = dir.resolve("bot-token");
    Files.writeString(tokenFile, RecordingBotApi.TOKEN + "\n");
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    try (RecordingBotApi telegram = new RecordingBotApi();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent",
            "--log-format", "json", "--log-level", "debug")) {
      serve.awaitStderr("tether agent: ready on", START_MS);
      try (ChildJvm bridge = ChildJvm.start(dir, "telegram", Map.of(), "telegram",
          "--token-file", tokenFile.toString(), "--api-url", telegram.url().toString(),
          "--host", "unix:" + socket, "--instance", "default", "--allowed-chats", Long.toString(CHAT),
          "--state-dir", dir.resolve("telegram-state").toString(), "--log-format", "json", "--log-level", "debug")) {
        bridge.awaitStderr("tether telegram: bridging", START_MS);
        telegram.addMessage(TgMessages.text(CHAT, "Hello there, agent"));
        telegram.awaitDelivered(c -> c.method().equals("sendMessage"), 1, Duration.ofSeconds(60));

        List<JsonNode> bridgeLog = jsonLines(bridge.stderrText());
        JsonNode forwarded = only(bridgeLog, n -> n.path("msg").asText().startsWith("forwarded message"));
        String msgId = forwarded.path("msg_id").asText();
        assertFalse(msgId.isEmpty(), "the bridge names the msg_id the host gave: " + forwarded);
        assertEquals("user.message", forwarded.path("type").asText());
        assertEquals("telegram:" + CHAT, forwarded.path("session").asText());
        assertEquals("default", forwarded.path("instance").asText());
        assertEquals("DEBUG", forwarded.path("level").asText());

        bridge.awaitStderr("delivered assistant.done", START_MS);
        JsonNode delivered = only(jsonLines(bridge.stderrText()),
            n -> n.path("msg").asText().startsWith("delivered assistant.done"));
        assertEquals(msgId, delivered.path("msg_id").asText(), "the answer leaves under the ask's msg_id");

        List<JsonNode> serveLog = jsonLines(serve.stderrText());
        List<JsonNode> ask = serveLog.stream().filter(n -> msgId.equals(n.path("msg_id").asText())).toList();
        assertTrue(has(ask, "dev.tether.server.ingress", "user.message"), describe(ask));
        assertTrue(has(ask, "dev.tether.server.ingress", "assistant.done"), describe(ask));
        assertTrue(has(ask, "tether.agent", "user.message"), "the agent's 'answering' line: " + describe(ask));
        assertTrue(has(ask, "tether.agent", "assistant.done"), "the agent's 'answered' line: " + describe(ask));
        JsonNode accepted = ask.stream().filter(n -> n.path("type").asText().equals("user.message")
            && n.path("logger").asText().equals("dev.tether.server.ingress")).findFirst().orElseThrow();
        assertEquals(forwarded.path("seq").asText(), accepted.path("seq").asText(), "host and bridge agree on the seq");
        assertEquals("", bridge.stderrText().lines().filter(l -> l.contains(RecordingBotApi.TOKEN))
            .collect(Collectors.joining("\n")), "the token is never logged, not even at DEBUG");
      }
    }
  }

  @Test
  void covenRequest_isFollowedByItsMsgId_andInfoLevelHidesTheDebugLines() throws Exception {
    Path socket = dir.resolve("tether.sock");
    try (FakeGateway gateway = FakeGateway.start();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent",
            "--log-format", "json")) { // the default level: info
      serve.awaitStderr("tether agent: ready on", START_MS);
      try (ChildJvm coven = ChildJvm.start(dir, "coven", Map.of(), "coven", "--gateway", gateway.target(), "--plaintext",
          "--host", socket.toString(), "--instance", "default", "--name", "demo",
          "--agent-id-file", dir.resolve("coven-agent-id").toString(), "--log-format", "json", "--log-level", "debug")) {
        FakeGateway.Conn conn = gateway.nextConnection(Duration.ofMillis(START_MS));
        conn.next(Duration.ofSeconds(60)); // the registration
        conn.send(ServerMessage.newBuilder().setSendMessage(SendMessage.newBuilder().setRequestId("r-trace")
            .setThreadId("thread-9").setSender("alice").setContent("Hello from coven")).build());
        List<MessageResponse> answer = conn.responsesUntilTerminal("r-trace", Duration.ofSeconds(60));
        assertTrue(answer.get(answer.size() - 1).hasDone(), answer.toString());
        coven.awaitStderr("request r-trace done", START_MS);

        List<JsonNode> covenLog = jsonLines(coven.stderrText());
        JsonNode posted = only(covenLog, n -> n.path("msg").asText().startsWith("tether coven: request r-trace posted as"));
        String msgId = posted.path("msg_id").asText();
        assertFalse(msgId.isEmpty(), posted.toString());
        assertEquals("user.message", posted.path("type").asText());
        JsonNode ended = only(covenLog, n -> n.path("msg").asText().equals("tether coven: request r-trace done"));
        assertEquals(msgId, ended.path("msg_id").asText(), "the terminal line names the same ask");

        List<JsonNode> serveLog = jsonLines(serve.stderrText());
        List<JsonNode> ask = serveLog.stream().filter(n -> msgId.equals(n.path("msg_id").asText())).toList();
        assertTrue(has(ask, "tether.agent", "user.message"), "INFO lines keep their fields: " + describe(ask));
        assertTrue(serveLog.stream().noneMatch(n -> n.path("level").asText().equals("DEBUG")),
            "at the default level no DEBUG line is written: " + describe(serveLog));
      }
    }
  }

  @Test
  void unknownLogLevel_isAUsageError() throws Exception {
    try (ChildJvm serve = ChildJvm.start(dir, "serve-bad-level", Map.of(), "serve", "--socket",
        dir.resolve("x.sock").toString(), "--log-level", "loud")) {
      serve.awaitStderr("--log-level must be error, warning, info, debug or trace but was 'loud'", START_MS);
    }
  }

  /** Every line of {@code stderr}, each of which must be one JSON object. */
  private static List<JsonNode> jsonLines(String stderr) throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : stderr.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode node = JSON.readTree(line);
      assertTrue(node.isObject() && node.has("ts") && node.has("level") && node.has("msg"), "a JSON log object: " + line);
      lines.add(node);
    }
    return lines;
  }

  private static JsonNode only(List<JsonNode> lines, java.util.function.Predicate<JsonNode> which) {
    List<JsonNode> found = lines.stream().filter(which).toList();
    assertEquals(1, found.size(), describe(lines));
    return found.get(0);
  }

  private static boolean has(List<JsonNode> lines, String logger, String type) {
    return lines.stream().anyMatch(n -> n.path("logger").asText().equals(logger) && n.path("type").asText().equals(type));
  }

  private static String describe(List<JsonNode> lines) {
    return lines.stream().map(JsonNode::toString).collect(Collectors.joining("\n"));
  }
}
