package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.MemoryTetherStore;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mounted handler's open response (as {@code /mcp}'s SSE stream) under an instance token, on a
 * real server over loopback TCP: revoking the token or deleting its instance closes it within a
 * second, and the token's next request is 401; a stream of the host token, or of another token,
 * runs on.
 */
class MountRevocationHttpTest {
  private static final String HOST = "Bearer " + "h".repeat(40);

  @TempDir Path dir;
  private TetherServer server;
  private RawHttp http;
  private final List<Callback> open = new CopyOnWriteArrayList<>();

  /** Answers 200 with one SSE event and never completes, as an MCP stream waiting for news. */
  private final class Held extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      response.setStatus(200);
      response.getHeaders().put("Content-Type", "text/event-stream");
      response.write(false, ByteBuffer.wrap("data: open\n\n".getBytes(StandardCharsets.US_ASCII)), Callback.NOOP);
      open.add(callback);
      return true;
    }
  }

  @BeforeEach
  void start() throws Exception {
    server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(HOST.substring(7))
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).instance("vm1").instance("vm2")
        .mount("/held", client -> new Held()).start();
    http = new RawHttp(server.boundAddress());
  }

  @AfterEach
  void stop() {
    open.forEach(c -> c.failed(new IllegalStateException("test over")));
    http.close();
    server.close();
  }

  @Test
  void revokingTheToken_closesItsOpenStreamWithinASecond_andItsNextRequestIs401() throws Exception {
    Minted vm1 = mint("vm1");
    Minted other = mint("vm1");
    try (Socket revoked = openStream(vm1.token()); Socket kept = openStream(other.token()); Socket host = openStream(HOST.substring(7))) {
      assertEquals(200, http.send("DELETE", "/v1/tokens/" + vm1.id(), null, null, HOST).status());
      assertEndsWithinASecond(revoked);
      assertStillOpen(kept);
      assertStillOpen(host);
      assertEquals(401, http.send("GET", "/held", null, null, "Bearer " + vm1.token()).status());
    }
  }

  @Test
  void deletingTheInstance_closesTheStreamsOfItsTokens_notTheHosts() throws Exception {
    Minted vm2 = mint("vm2");
    Minted vm1 = mint("vm1");
    try (Socket doomed = openStream(vm2.token()); Socket kept = openStream(vm1.token()); Socket host = openStream(HOST.substring(7))) {
      assertEquals(200, http.send("DELETE", "/v1/instances/vm2", null, null, HOST).status());
      assertEndsWithinASecond(doomed);
      assertStillOpen(kept);
      assertStillOpen(host);
      assertEquals(401, http.send("GET", "/held", null, null, "Bearer " + vm2.token()).status());
    }
  }

  private record Minted(String id, String token) {}

  private Minted mint(String instance) throws Exception {
    RawHttp.Reply r = http.send("POST", "/v1/tokens", "application/json",
        ("{\"instance\":\"" + instance + "\"}").getBytes(StandardCharsets.UTF_8), HOST);
    assertEquals(201, r.status(), r.body());
    return new Minted(r.json().get("id").asText(), r.json().get("token").asText());
  }

  /** GET /held with {@code token} on a socket of its own, read up to the first event. */
  private Socket openStream(String token) throws Exception {
    HostAddress.Tcp at = (HostAddress.Tcp) server.boundAddress();
    Socket s = new Socket(at.host(), at.port());
    s.setSoTimeout(5_000);
    s.getOutputStream().write(("GET /held HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    String head = readUntil(s.getInputStream(), "data: open\n\n");
    assertTrue(head.startsWith("HTTP/1.1 200"), head);
    return s;
  }

  private static String readUntil(InputStream in, String marker) throws Exception {
    ByteArrayOutputStream seen = new ByteArrayOutputStream();
    while (!seen.toString(StandardCharsets.US_ASCII).contains(marker)) {
      int b = in.read();
      if (b < 0) {
        throw new AssertionError("the stream ended before '" + marker + "': " + seen.toString(StandardCharsets.US_ASCII));
      }
      seen.write(b);
    }
    return seen.toString(StandardCharsets.US_ASCII);
  }

  private static void assertEndsWithinASecond(Socket s) throws Exception {
    s.setSoTimeout(1_000);
    long start = System.nanoTime();
    InputStream in = s.getInputStream();
    byte[] buf = new byte[256];
    int n;
    while ((n = in.read(buf)) >= 0) {
      assertTrue(n > 0);
    }
    assertTrue(System.nanoTime() - start < 1_000_000_000L, "ended within a second");
  }

  private static void assertStillOpen(Socket s) throws Exception {
    s.setSoTimeout(200);
    assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read(), "nothing ended this stream");
  }
}
