package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.client.HostAddress;
import dev.tether.server.MemoryBudget;
import dev.tether.server.TetherServer;
import dev.tether.server.jetstream.JetStreamShared;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.jetstream.testing.NatsServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedder who uses only the libraries ({@code TetherServer.builder().shared(JetStreamShared.on(url))})
 * shares with a {@code serve --nats} child process exactly what two {@code serve --nats} share:
 * the registry, frames, watermarks, blobs and the ring caps of the stream.
 */
class EmbeddedSharedTest {
  @TempDir static Path dir;
  static NatsServer nats;
  static ChildJvm serve;
  static TetherServer embedded;
  static RawHttp cli;
  static RawHttp lib;

  @BeforeAll
  static void start() throws Exception {
    NatsServer.binary();
    nats = NatsServer.single(dir.resolve("nats"));
    serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", dir.resolve("cli.sock").toString(),
        "--nats", nats.url(), "--ring-max-frames", "5", "--workspaces", dir.resolve("ws-cli").toString());
    serve.awaitStderr("listening on", 60_000);
    embedded = TetherServer.builder()
        .listen(new HostAddress.Unix(dir.resolve("lib.sock")))
        .workspaces(dir.resolve("ws-lib"))
        .memoryBudget(MemoryBudget.resolve(Runtime.getRuntime().maxMemory(), null, null, 5, null))
        .shared(JetStreamShared.on(nats.url()))
        .start();
    cli = new RawHttp(new HostAddress.Unix(dir.resolve("cli.sock")));
    lib = new RawHttp(new HostAddress.Unix(dir.resolve("lib.sock")));
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {cli, lib, embedded, serve, nats}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception ignored) {
        // best effort
      }
    }
  }

  @Test
  void registryFramesAndWatermarks_areSharedBetweenTheLibraryAndServe() throws Exception {
    assertEquals(201, lib.send("PUT", "/v1/instances/e1", null, new byte[0]).status());
    assertEquals(200, awaitStatus(cli, "/v1/instances/e1", 200), "registered by the library, known to serve");
    RawHttp.Reply sent = cli.post("/v1/instances/e1/tether", Fixtures.wire(Fixtures.userMessage("s", "from serve")));
    assertEquals(202, sent.status(), sent.body());
    JsonNode page = lib.get("/v1/instances/e1/tether/poll").json();
    assertEquals(1, page.get("frames").size(), page.toString());
    assertEquals(200, lib.post("/v1/instances/e1/tether/watermark?channel=gw", "{\"seq\":1}".getBytes(StandardCharsets.UTF_8)).status());
    assertEquals(1, cli.get("/v1/instances/e1/tether/watermark?channel=gw").json().get("seq").asLong());
    assertEquals(200, cli.method("DELETE", "/v1/instances/e1").status());
    assertEquals(404, awaitStatus(lib, "/v1/instances/e1", 404), "deleted by serve, gone in the library");
  }

  @Test
  void blobUploadedThroughTheLibrary_isServedByServe_andTheRingCapBoundsTheStream() throws Exception {
    assertEquals(201, lib.send("PUT", "/v1/instances/e2", null, new byte[0]).status());
    awaitStatus(cli, "/v1/instances/e2", 200);
    byte[] upload = Fixtures.picture("png", 9, 4);
    RawHttp.Reply stored = lib.send("POST", "/v1/instances/e2/blob", "image/png", upload);
    assertEquals(200, stored.status(), stored.body());
    RawHttp.Reply fetched = cli.get("/v1/instances/e2/blob/" + stored.json().get("blob").asText());
    assertEquals(200, fetched.status(), fetched.body());
    assertArrayEquals(upload, fetched.bytes());
    for (int i = 0; i < 7; i++) {
      assertEquals(202, lib.post("/v1/instances/e2/tether", Fixtures.wire(Fixtures.userMessage("s", "n" + i))).status());
    }
    JsonNode page = cli.get("/v1/instances/e2/tether/poll?after_seq=0").json();
    assertEquals(5, page.get("frames").size(), "the library's budget bounds the stream as --ring-max-frames does: " + page);
    assertTrue(page.path("gap").asBoolean(), page.toString());
  }

  private static int awaitStatus(RawHttp http, String path, int want) throws Exception {
    int status = -1;
    for (int i = 0; i < 100 && status != want; i++) {
      status = http.get(path).status();
      if (status != want) {
        Thread.sleep(20);
      }
    }
    return status;
  }
}
