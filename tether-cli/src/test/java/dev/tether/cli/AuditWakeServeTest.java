package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.client.HostAddress;
import dev.tether.client.TokenFile;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --audit-log} and {@code serve --wake-command} as an operator runs them: a real
 * {@code serve} child, a real wake script that writes {@code $TETHER_INSTANCE} to a file, the audit
 * file read back (the refusals of bad flags and files are in {@link AuditWakeFlagsTest}).
 */
class AuditWakeServeTest {
  @TempDir Path dir;

  @Test
  void aMessageForAnIdleInstance_runsTheWakeScriptWithItsId_andIsAudited() throws Exception {
    Path woken = dir.resolve("woken");
    Path script = dir.resolve("wake.sh");
    Files.writeString(script, "#!/bin/sh\nprintf '%s' \"$TETHER_INSTANCE\" > '" + woken + "'\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Path audit = dir.resolve("audit.log");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--listen", "127.0.0.1:0", "--instance", "vm1",
        "--audit-log", audit.toString(), "--wake-command", "'" + script + "'", "--wake-idle", "1")) {
      String url = serve.awaitStderr("listening on (http://127\\.0\\.0\\.1:\\d+)", 60_000).group(1);
      String token = TokenFile.read(dir.resolve(".tether").resolve("token"));
      try (RawHttp http = new RawHttp(HostAddress.parse(url))) {
        assertEquals(202, http.send("POST", "/v1/instances/vm1/tether", "application/json",
            Fixtures.wire(Fixtures.userMessage("s", "wake up")), "Bearer " + token).status());
      }
      serve.awaitStderr("wake command for instance vm1 exited 0 in \\d+ ms", 20_000);
      assertEquals("vm1", Files.readString(woken));
      serve.terminate();
      List<String> lines = Files.readAllLines(audit);
      assertEquals(1, lines.size(), lines.toString());
      JsonNode line = new ObjectMapper().readTree(lines.get(0));
      assertEquals("host", line.get("token_id").asText());
      assertEquals("vm1", line.get("instance").asText());
      assertEquals("user.message", line.get("type").asText());
      assertEquals(202, line.get("status").asInt());
      assertFalse(Files.readString(audit).contains(token), "never the token");
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(audit)));
    }
  }
}
