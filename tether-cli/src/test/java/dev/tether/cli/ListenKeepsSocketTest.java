package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.client.TokenFile;
import dev.tether.server.testing.RawHttp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36's findings, as a user meets them with real processes: {@code serve --listen} prints a
 * URL to paste and keeps the default socket, so {@code tether token} (another process, the same
 * {@code HOME}) reaches it without {@code --host}; with no host at all, {@code token list} says so
 * in one line.
 */
class ListenKeepsSocketTest {
  @TempDir Path dir;

  @Test
  void serveListen_printsAPasteableUrl_andTokenCommandsReachItByTheDefaultSocket() throws Exception {
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--listen", "127.0.0.1:0", "--instance", "vm1")) {
      String url = serve.awaitStderr("listening on (http://127\\.0\\.0\\.1:\\d+)", 60_000).group(1);
      Path socket = dir.resolve(".tether").resolve("tether.sock");
      assertTrue(serve.awaitStderr("and on (unix:\\S+)", 5_000).group(1).endsWith(socket.toString()));
      String token = TokenFile.read(dir.resolve(".tether").resolve("token"));
      try (RawHttp tcp = new RawHttp(HostAddress.parse(url))) {
        assertEquals(200, tcp.get("/v1/instances", "Bearer " + token).status(), "the printed URL, pasted");
        assertEquals(401, tcp.get("/v1/instances").status(), "TCP still needs the token");
      }
      ChildJvm create = ChildJvm.start(dir, "create", Map.of(), "token", "create", "--instance", "vm1");
      assertEquals(0, create.awaitExit(60_000), create.stderrText());
      ChildJvm list = ChildJvm.start(dir, "list", Map.of(), "token", "list");
      assertEquals(0, list.awaitExit(60_000), list.stderrText());
      assertTrue(Files.readString(dir.resolve("list.out")).contains("\tvm1\t"), "listed without --host");
      assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
      serve.terminate();
      assertFalse(Files.exists(socket), "the socket goes with the server");
    }
  }

  @Test
  void tokenList_withNoHostRunning_isOneLineSayingSo() throws Exception {
    ChildJvm list = ChildJvm.start(dir, "list", Map.of(), "token", "list");
    assertEquals(1, list.awaitExit(60_000));
    String err = list.stderrText().strip();
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("tether token: no tether host is listening on unix:"), err);
    assertFalse(err.contains("Exception"), err);
  }
}
