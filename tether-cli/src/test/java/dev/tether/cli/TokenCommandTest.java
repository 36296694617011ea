package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.client.TokenFile;
import dev.tether.server.testing.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/** {@code tether token create|list|revoke} against a real {@code serve --listen}, and what the minted token opens. */
@ResourceLock("System.out")
class TokenCommandTest {
  @TempDir Path dir;

  @Test
  void createWritesAnOwnerOnlyFile_thatOpensOnlyItsInstance_untilRevoked() throws Exception {
    Path hostToken = dir.resolve("host-token");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--listen", "127.0.0.1:0", "--token-file",
        hostToken.toString(), "--instance", "vm1", "--instance", "vm2", "--data-dir", dir.resolve("data").toString())) {
      String bound = serve.awaitStderr("listening on http://(127\\.0\\.0\\.1:\\d+)", 60_000).group(1);
      String host = "http://" + bound;
      Path vmToken = dir.resolve("vm1.token");
      assertEquals(0, Main.run("token", "create", "--instance", "vm1", "--host", host, "--token-file", hostToken.toString(),
          "--out", vmToken.toString()));
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(vmToken)));
      String token = TokenFile.read(vmToken); // what tether agent --token-file reads: passes its rules
      try (RawHttp http = new RawHttp(HostAddress.parse(bound))) {
        assertEquals(200, http.get("/v1/instances/vm1/tether/poll", "Bearer " + token).status());
        assertEquals(403, http.get("/v1/instances/vm2/tether/poll", "Bearer " + token).status());
        assertEquals(403, http.get("/v1/instances", "Bearer " + token).status());

        String listed = captureStdout(() -> Main.run("token", "list", "--host", host, "--token-file", hostToken.toString()));
        assertTrue(listed.contains("\tvm1\t"), listed);
        String id = listed.strip().split("\t")[0];
        assertEquals(0, Main.run("token", "revoke", id, "--host", host, "--token-file", hostToken.toString()));
        assertEquals(401, http.get("/v1/instances/vm1/tether/poll", "Bearer " + token).status());
        assertEquals(1, Main.run("token", "revoke", id, "--host", host, "--token-file", hostToken.toString()),
            "revoking twice: the host answers NOT_FOUND");
      }
    }
  }

  private static String captureStdout(java.util.function.IntSupplier run) {
    PrintStream old = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      assertEquals(0, run.getAsInt());
    } finally {
      System.setOut(old);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
