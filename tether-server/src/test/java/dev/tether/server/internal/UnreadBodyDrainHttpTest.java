package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.store.MemoryTetherStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request refused before its body is read (401, 404) leaves the connection usable, however late
 * the rest of the body arrives: the client that pooled the connection must never send its next
 * request into a socket the server closed after answering ("header parser received no bytes").
 */
class UnreadBodyDrainHttpTest {
  private static final String HOST_TOKEN = "h".repeat(40);
  private static final int BODY = 4000;

  @TempDir Path dir;

  @Test
  void refusalsBeforeTheBodyArrives_keepTheConnection_forEveryNextRequest() throws Exception {
    try (TetherServer server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(HOST_TOKEN)
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).instance("vm1").start();
        Socket socket = new Socket("127.0.0.1", ((HostAddress.Tcp) server.boundAddress()).port())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      String[][] refusals = {
          {"/v1/instances/vm1/tether", "Bearer wrong-token", "401"},
          {"/v1/no-such-route", "Bearer " + HOST_TOKEN, "404"},
          {"/v1/instances/ghost/tether", "Bearer " + HOST_TOKEN, "404"},
      };
      byte[] body = new byte[BODY];
      Arrays.fill(body, (byte) 'x');
      for (int i = 0; i < 30; i++) {
        String[] r = refusals[i % refusals.length];
        out.write(("POST " + r[0] + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + r[1]
            + "\r\nContent-Type: application/json\r\nContent-Length: " + BODY + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body, 0, 10); // the head and a little: the route answers before the rest is sent
        out.flush();
        String answer = readResponse(in);
        assertEquals(r[2], answer.substring(9, 12), "request " + i + ": " + answer);
        assertFalse(answer.toLowerCase(Locale.ROOT).contains("connection: close"), "request " + i + ": " + answer);
        out.write(body, 10, BODY - 10); // the rest, after the answer
        out.flush();
      }
      out.write("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ".getBytes(StandardCharsets.US_ASCII));
      out.write((HOST_TOKEN + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertEquals("200", readResponse(in).substring(9, 12));
    }
  }

  /** One HTTP/1.1 response with a Content-Length body; EOF before its end is an IOException. */
  private static String readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the server closed the connection; read so far: " + head);
      }
      head.write(b);
      matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    String text = head.toString(StandardCharsets.US_ASCII);
    int length = 0;
    for (String line : text.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    byte[] bodyBytes = in.readNBytes(length);
    if (bodyBytes.length < length) {
      throw new IOException("the body ended early: " + text);
    }
    return text + new String(bodyBytes, StandardCharsets.UTF_8);
  }
}
