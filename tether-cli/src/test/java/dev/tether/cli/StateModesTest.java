package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, least privilege on disk: a {@code --data-dir} that already exists is tightened to 0700
 * when it is ours and refused in one line when it is not; the Telegram bridge's state directory is
 * 0700 and every file it writes there ({@code bridge.lock}, {@code ingress.json}, {@code
 * egress.json}) 0600, also when the directory existed 0755 before (the process runs under the usual
 * umask 022, which gave these files 0644).
 */
class StateModesTest {
  private static final long START_MS = 60_000;
  private static final long CHAT = 7171L;

  @TempDir Path dir;

  @Test
  void serveDataDirAndAgentDirExisting0755_areTightenedTo0700AtStart() throws Exception {
    Path data = open0755(dir.resolve("data"));
    Path agentDir = open0755(dir.resolve(".tether").resolve("agent")); // the demo agent's default, HOME is dir
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", dir.resolve("t.sock").toString(),
        "--data-dir", data.toString(), "--with-agent")) {
      serve.awaitStderr("listening on", START_MS);
      serve.awaitStderr("tether agent: ready on", START_MS);
      assertEquals("rwx------", mode(data));
      assertEquals("rwx------", mode(agentDir));
    }
  }

  @Test
  void dataDirOfAnotherUser_isRefusedInOneLine_andLeftAsItWas() throws Exception {
    Path theirs = open0755(dir.resolve("theirs"));
    UserPrincipal nobody;
    try {
      nobody = theirs.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(theirs, nobody);
    } catch (java.io.IOException e) {
      assumeTrue(false, "giving a directory to another user needs root: " + e);
      return;
    }
    try (ChildJvm serve = ChildJvm.start(dir, "serve-theirs", Map.of(), "serve", "--socket", dir.resolve("t.sock").toString(),
        "--data-dir", theirs.toString())) {
      serve.awaitStderr("tether serve: --data-dir: " + java.util.regex.Pattern.quote(theirs.toString())
          + ": it belongs to nobody, not to ", START_MS);
      assertEquals(2, serve.terminate(), "a usage error's status");
      assertOneLineNoStackTrace(serve.stderrText());
    }
    assertEquals("rwxr-xr-x", mode(theirs), "another user's directory is not changed");
    assertEquals(nobody, Files.getOwner(theirs));

    Path file = Files.writeString(dir.resolve("a-file"), "x");
    try (ChildJvm serve = ChildJvm.start(dir, "serve-file", Map.of(), "serve", "--socket", dir.resolve("u.sock").toString(),
        "--data-dir", file.toString())) {
      serve.awaitStderr("tether serve: --data-dir: .*a-file is not a directory", START_MS);
      assertEquals(2, serve.terminate());
      assertOneLineNoStackTrace(serve.stderrText());
    }
  }

  @Test
  void telegramStateDirExisting0755_isTightened_andEveryFileTheBridgeWritesIs0600() throws Exception {
    Path socket = dir.resolve("tether.sock");
    Path tokenFile = dir.resolve("bot-token");
    Files.writeString(tokenFile, RecordingBotApi.TOKEN + "\n");
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    Path state = open0755(dir.resolve("telegram-state"));
    try (RecordingBotApi telegram = new RecordingBotApi();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent")) {
      serve.awaitStderr("ready on", START_MS);
      try (ChildJvm bridge = ChildJvm.start(dir, "telegram", Map.of(), "telegram", "--token-file", tokenFile.toString(),
          "--api-url", telegram.url().toString(), "--host", "unix:" + socket, "--instance", "default",
          "--allowed-chats", Long.toString(CHAT), "--state-dir", state.toString())) {
        bridge.awaitStderr("tether telegram: bridging", START_MS);
        telegram.addMessage(TgMessages.text(CHAT, "Hello there"));
        telegram.awaitDelivered(c -> c.method().equals("sendMessage"), 1, java.time.Duration.ofSeconds(60));
        awaitFile(state.resolve("ingress.json"));
        awaitFile(state.resolve("egress.json"));
        assertEquals(143, bridge.terminate());
      }
    }
    List<String> seen = new ArrayList<>();
    List<String> open = new ArrayList<>();
    try (Stream<Path> all = Files.walk(state)) {
      for (Path p : all.toList()) {
        String want = Files.isDirectory(p) ? "rwx------" : "rw-------";
        seen.add(state.relativize(p).toString());
        if (!mode(p).equals(want)) {
          open.add(state.relativize(p) + " " + mode(p));
        }
      }
    }
    assertTrue(seen.containsAll(List.of("bridge.lock", "ingress.json", "egress.json")), seen.toString());
    assertEquals(List.of(), open, "files or directories others can read, of " + seen);
  }

  @Test
  void covenAgentIdFile_isCreated0600_andAnOld0644OneTightened() throws Exception {
    Path file = dir.resolve("ids").resolve("coven-agent-id");
    String id = CovenCommand.agentId(file);
    assertEquals("rw-------", mode(file));
    assertEquals("rwx------", mode(file.getParent()));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    assertEquals(id, CovenCommand.agentId(file), "the same id on the next start");
    assertEquals("rw-------", mode(file));
  }

  private static Path open0755(Path p) throws Exception {
    Files.createDirectories(p);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private static void awaitFile(Path p) throws InterruptedException {
    long end = System.nanoTime() + START_MS * 1_000_000;
    while (!Files.exists(p) && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    assertTrue(Files.exists(p), p + " was never written");
  }

  private static void assertOneLineNoStackTrace(String stderr) {
    List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
    assertEquals(1, lines.size(), stderr);
    assertFalse(stderr.contains("Exception") || stderr.contains("\tat "), stderr);
  }
}
