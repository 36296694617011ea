package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.testing.RawHttp;
import dev.tether.telegram.testing.RecordingBotApi;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, forged log lines: a {@code msg_id} and a session id that carry a newline, a line of
 * their own ({@code tether serve: listening on ...}) and a terminal escape, sent to a real {@code
 * serve --log-level debug --with-agent} and, as a {@code media.fetch}, to a real {@code tether
 * telegram} at the default level. Every stderr line must be one line that the process wrote: a
 * log record, a command's own line, or a continuation line of a logged exception; none is the
 * forged one, and no raw ESC reaches the terminal.
 */
class LogForgingTest {
  private static final long START_MS = 60_000;
  private static final long CHAT = 6161L;
  /** The attacker's text: a forged line after a newline, then an ANSI colour escape, then a C1 CSI and a bidi override. */
  private static final String FORGED = "tether serve: listening on 127.0.0.1:1 (forged)";
  private static final String EVIL = "x\n" + FORGED + "\u001b[31mred\r\u009b\u202e";
  private static final String EVIL_JSON = "x\\n" + FORGED + "\\u001b[31mred\\r\\u009b\\u202e";
  /** A log record, a command's own line, or a continuation line of a logged exception. */
  private static final Pattern ONE_OF_OURS = Pattern.compile(
      "^(\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z (ERROR|WARNING|INFO|DEBUG|TRACE) \\S+: |tether (serve|agent|telegram): |\t)");

  @TempDir Path dir;

  @Test
  void serveAtDebug_msgIdAndSessionWithANewlineAndEsc_printNoForgedLine() throws Exception {
    Path socket = dir.resolve("t.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent",
            "--log-level", "debug", "--workspaces", dir.resolve("ws").toString());
        RawHttp http = new RawHttp(new HostAddress.Unix(socket))) {
      serve.awaitStderr("tether agent: ready on", START_MS);
      String ask = "{\"v\":1,\"type\":\"user.message\",\"msg_id\":\"" + EVIL_JSON + "\",\"session\":{\"channel\":\"host\",\"id\":\""
          + EVIL_JSON + "\"},\"payload\":{\"text\":\"hello\"}}";
      assertEquals(202, http.post("/v1/instances/default/tether", ask.getBytes(StandardCharsets.UTF_8)).status());
      String cancel = "{\"v\":1,\"type\":\"control.cancel\",\"msg_id\":\"" + EVIL_JSON + "\",\"session\":{\"channel\":\"host\",\"id\":\""
          + EVIL_JSON + "\"},\"payload\":{}}";
      assertEquals(202, http.post("/v1/instances/default/tether", cancel.getBytes(StandardCharsets.UTF_8)).status());
      serve.awaitStderr("tether agent: cancel ", START_MS); // the agent's own line, after the host's debug lines
      serve.awaitStderr("accepted assistant.done", START_MS);

      String log = serve.stderrText();
      assertOnlyOurLines(log);
      assertTrue(log.contains("msg_id " + LogText.escape(EVIL)), "the host's debug line names the msg_id, escaped:\n" + log);
      assertTrue(log.contains("tether agent: cancel " + LogText.escape(EVIL)), log);
    }
  }

  @Test
  void telegramBridge_mediaFetchMsgIdWithANewlineAndEsc_printsNoForgedLine() throws Exception {
    Path socket = dir.resolve("t.sock");
    Path tokenFile = dir.resolve("bot-token");
    Files.writeString(tokenFile, RecordingBotApi.TOKEN + "\n");
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    try (RecordingBotApi telegram = new RecordingBotApi();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(),
            "--workspaces", dir.resolve("ws").toString());
        RawHttp http = new RawHttp(new HostAddress.Unix(socket))) {
      serve.awaitStderr("listening on", START_MS);
      try (ChildJvm bridge = ChildJvm.start(dir, "telegram", Map.of(), "telegram", "--token-file", tokenFile.toString(),
          "--api-url", telegram.url().toString(), "--host", "unix:" + socket, "--instance", "default",
          "--allowed-chats", Long.toString(CHAT), "--state-dir", dir.resolve("state").toString())) { // the default level
        bridge.awaitStderr("tether telegram: bridging", START_MS);
        String fetch = "{\"v\":1,\"type\":\"media.fetch\",\"msg_id\":\"" + EVIL_JSON + "\",\"session\":{\"channel\":\"telegram\",\"id\":\""
            + CHAT + "\"},\"payload\":{\"ref\":\"tg_neverAnnounced\"}}";
        assertEquals(202, http.post("/v1/instances/default/tether", fetch.getBytes(StandardCharsets.UTF_8)).status());
        bridge.awaitStderr("media\\.fetch .*UNKNOWN_REF", START_MS);

        String log = bridge.stderrText();
        assertOnlyOurLines(log);
        assertTrue(log.contains("media.fetch " + LogText.escape(EVIL) + " in "), log);
      }
    }
  }

  private static void assertOnlyOurLines(String log) {
    assertTrue(log.lines().noneMatch(l -> l.startsWith(FORGED)), "the forged line stands alone:\n" + log);
    assertFalse(log.contains("\u001b"), "no raw ESC:\n" + log);
    assertFalse(log.contains("\u009b") || log.contains("\u202e") || log.contains("\r"), "no C1, bidi override or CR:\n" + log);
    for (String line : log.split("\n", -1)) {
      if (line.isEmpty()) {
        continue;
      }
      assertTrue(ONE_OF_OURS.matcher(line).find(), "a line the process did not write as one:\n" + line + "\nin:\n" + log);
    }
  }
}
