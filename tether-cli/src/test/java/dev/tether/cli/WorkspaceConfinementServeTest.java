package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 against a real {@code serve}: a client could point a workspace at {@code /etc}, at
 * {@code /} through {@code ..}, through a link, at a file (answered 500 with the path), or at
 * another instance's workspace; 2,000 PUTs all succeeded. Now each is refused with a code.
 */
class WorkspaceConfinementServeTest {
  @TempDir Path dir;

  @Test
  void workspacesStayInsideTheirRoots_andTheRegistryIsBounded() throws Exception {
    Path root = Files.createDirectories(dir.resolve("roots/a"));
    Files.createSymbolicLink(root.resolve("link"), Files.createDirectories(dir.resolve("elsewhere")));
    Files.writeString(root.resolve("afile"), "x");
    Path socket = dir.resolve("t.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(),
            "--workspaces", root.toString(), "--max-instances", "3");
        RawHttp http = new RawHttp(new HostAddress.Unix(socket))) {
      serve.awaitStderr("listening on", 60_000);
      for (String ws : List.of("/etc", "/tmp/x/../../", root.resolve("link").toString(), root.resolve("afile").toString())) {
        RawHttp.Reply r = http.send("PUT", "/v1/instances/w", "application/json",
            ("{\"workspace\":\"" + ws + "\"}").getBytes(StandardCharsets.UTF_8));
        assertEquals(400, r.status(), ws + " -> " + r.body());
        assertEquals("INVALID_ARGUMENT", r.errorCode());
        assertFalse(r.body().contains("Exception"), r.body());
      }
      assertEquals(201, http.send("PUT", "/v1/instances/one", "application/json",
          ("{\"workspace\":\"" + root.resolve("one") + "\"}").getBytes(StandardCharsets.UTF_8)).status());
      assertEquals(409, http.send("PUT", "/v1/instances/two", "application/json",
          ("{\"workspace\":\"" + root.resolve("one") + "\"}").getBytes(StandardCharsets.UTF_8)).status(), "never shared");
      assertEquals(201, http.send("PUT", "/v1/instances/two", null, new byte[0]).status());
      RawHttp.Reply full = http.send("PUT", "/v1/instances/four", null, new byte[0]);
      assertEquals(503, full.status(), "'default' + one + two fill --max-instances 3: " + full.body());
      assertEquals("TOO_MANY_INSTANCES", full.errorCode());
      assertTrue(Files.notExists(root.resolve("four")), "no directory for a refused instance");
    }
  }
}
