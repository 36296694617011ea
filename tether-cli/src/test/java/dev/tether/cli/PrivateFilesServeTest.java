package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23: with a {@code --data-dir} that already exists with mode 0755, the journal, its WAL and
 * SHM, the registry, watermarks, token hashes and blobs were readable by any local user. Every
 * file a real {@code serve} writes below the data directory is now 0600, every directory 0700.
 */
class PrivateFilesServeTest {
  @TempDir Path dir;

  @Test
  void dataDirCreated0755First_everyFileTheDaemonWritesIsOwnerOnly() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path socket = dir.resolve("t.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(),
            "--data-dir", data.toString(), "--instance", "vm1");
        RawHttp http = new RawHttp(new HostAddress.Unix(socket))) {
      serve.awaitStderr("listening on", 60_000);
      assertEquals(201, http.send("PUT", "/v1/instances/vm2", null, new byte[0]).status());
      assertEquals(202, http.post("/v1/instances/vm1/tether", Fixtures.wire(Fixtures.userMessage("s", "a secret", Fixtures.png(4, 4)))).status());
      assertEquals(200, http.post("/v1/instances/vm1/tether/watermark?channel=agent", "{\"seq\":1}".getBytes(StandardCharsets.UTF_8)).status());
      assertEquals(200, http.send("POST", "/v1/instances/vm1/blob", "image/png", Fixtures.picture("png", 5, 5)).status());
      assertEquals(201, http.send("POST", "/v1/tokens", "application/json", "{\"instance\":\"vm1\"}".getBytes(StandardCharsets.UTF_8)).status());
    }
    List<String> open = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    try (Stream<Path> all = Files.walk(data)) {
      for (Path p : all.filter(p -> !p.equals(data)).toList()) {
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        String want = Files.isDirectory(p) ? "rwx------" : "rw-------";
        seen.add(data.relativize(p).toString());
        if (!mode.equals(want)) {
          open.add(data.relativize(p) + " " + mode);
        }
      }
    }
    assertTrue(seen.contains("journal.db") && seen.contains("instances.json") && seen.contains("tokens.json")
        && seen.stream().anyMatch(s -> s.startsWith("watermarks/")) && seen.stream().anyMatch(s -> s.contains(".aegis/blobs/")), seen.toString());
    assertEquals(List.of(), open, "files or directories others can read, of " + seen);
  }
}
