package dev.tether.cli;

import dev.tether.server.TetherServer;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;
import dev.tether.client.FramePage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.Frame;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.sessions.FileBlobStore;
import dev.tether.sessions.SessionStore;
import dev.tether.store.MemoryTetherStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Images as blob refs end to end: a host sends a ref, the demo agent (reading over HTTP) gets the
 * image inline, answers with its chart as a blob ref (--images blob), and a reader that polls
 * through the client gets the chart's bytes back inline.
 */
class BlobImagesAgentTest {
  @TempDir Path dir;
  private TetherServer server;
  private HttpTetherClient agentClient;
  private HttpTetherClient hostClient;
  private DemoAgent agent;
  private SessionStore sessions;
  private RawHttp http;
  private Path workspace;

  @BeforeEach
  void start() throws Exception {
    workspace = dir.resolve("workspaces").resolve("vm");
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("t.sock"));
    server = TetherServer.builder().listen(address).store(MemoryTetherStore.create()).workspaces(dir.resolve("workspaces"))
        .instance("vm").start();
    agentClient = HttpTetherClient.builder(address).blobImages(true).build();
    hostClient = Clients.of(address, null);
    http = new RawHttp(address);
    sessions = SessionStore.builder(dir.resolve("agent/sessions"), FileBlobStore.open(dir.resolve("agent/blobs"))).build();
    agent = new DemoAgent(agentClient, "vm", new DemoReplier(), sessions);
    CountDownLatch ready = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      try {
        agent.run(0, ready::countDown);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    t.setDaemon(true);
    t.start();
    assertTrue(ready.await(30, TimeUnit.SECONDS));
  }

  @AfterEach
  void stop() throws Exception {
    agent.close();
    sessions.close();
    http.close();
    agentClient.close();
    hostClient.close();
    server.close();
  }

  @Test
  void refIn_agentSeesTheImage_answersWithARef_clientReadsItInline() throws Exception {
    byte[] png = Fixtures.picture("png", 6, 4);
    String key = hostClient.putBlob("vm", png, MediaType.PNG).get(30, TimeUnit.SECONDS);
    String frame = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"msg_id\":\"host-1\",\"payload\":{\"text\":"
        + "\"what is this? then a chart of 3 1 4\",\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + key + "\",\"size\":" + png.length + "}]}}";
    assertEquals(202, http.post("/v1/instances/vm/tether", Fixtures.utf8(frame)).status());

    JsonNode done = null;
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (done == null && System.nanoTime() < until) {
      JsonNode page = http.get("/v1/instances/vm/tether/poll?types=assistant.done&wait_ms=2000").json();
      if (page.get("frames").size() > 0) {
        done = page.get("frames").get(0);
      }
    }
    assertTrue(done != null, "the agent answered");
    assertTrue(done.at("/payload/text").asText().contains("PNG, 6x4"), done.toString());
    String chart = done.at("/payload/images/0/blob").asText();
    assertTrue(chart.endsWith(".png") && done.at("/payload/images/0/data").isMissingNode(), "the chart is a ref: " + done);
    assertTrue(Files.isRegularFile(workspace.resolve(".aegis/blobs").resolve(chart)), "where the reference clients read it");

    FramePage page = Clients.poll(hostClient,"vm", "*", "*", 0, 50, 0, List.of("assistant.done"), null).get(30, TimeUnit.SECONDS);
    Frame inline = page.frames().get(0);
    Payload.AssistantDone payload = (Payload.AssistantDone) inline.payloadView();
    assertEquals(1, payload.images().size());
    assertEquals(MediaType.PNG, payload.images().get(0).mediaType());
    assertEquals(chart, dev.tether.api.ImageRefs.keyFor(java.util.Base64.getDecoder().decode(payload.images().get(0).data()), MediaType.PNG));

    // tether mcp's tether_read: the chart becomes an MCP image item although the ring holds a ref.
    List<dev.tether.llm.McpContent> content = McpReads.content(McpReads.call(hostClient,
        java.util.Map.of("instance", "vm", "session_id", "s", "types", List.of("assistant.done"))).get(30, TimeUnit.SECONDS));
    assertTrue(content.stream().anyMatch(c -> c instanceof dev.tether.llm.McpContent.Image i && i.mimeType().equals("image/png")),
        content.toString());
  }
}
