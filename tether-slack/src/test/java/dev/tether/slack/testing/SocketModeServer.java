package dev.tether.slack.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Slack's Socket Mode end of the WebSocket (RFC 6455, text frames only), on 127.0.0.1: greets each
 * connection with {@code hello}, sends {@code events_api} envelopes and records the acks the
 * client sends back ({@code {"envelope_id": ...}}). One client at a time.
 */
public final class SocketModeServer implements AutoCloseable {
  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ServerSocket server;
  private final List<String> acks = new CopyOnWriteArrayList<>();
  private final Thread acceptor;
  private volatile Socket client;
  private volatile CountDownLatch connected = new CountDownLatch(1);

  SocketModeServer() throws IOException {
    server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::accept, "fake-socket-mode");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public URI url() {
    return URI.create("ws://127.0.0.1:" + server.getLocalPort() + "/link/?ticket=t1");
  }

  /** Waits until a client connected and was greeted. */
  public void awaitConnected(Duration wait) throws InterruptedException {
    if (!connected.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("no Socket Mode client connected");
    }
  }

  /** Sends one {@code events_api} envelope carrying {@code callback}; returns its envelope id. */
  public String sendEvent(JsonNode callback) throws IOException {
    String id = UUID.randomUUID().toString();
    var envelope = JSON.createObjectNode().put("envelope_id", id).put("type", "events_api").put("accepts_response_payload", false);
    envelope.set("payload", callback);
    sendText(envelope.toString());
    return id;
  }

  /** Sends raw text, for hostile-input tests. */
  public void sendText(String text) throws IOException {
    Socket s = client;
    if (s == null) {
      throw new IOException("no client");
    }
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    frame.write(0x81);
    if (payload.length < 126) {
      frame.write(payload.length);
    } else if (payload.length < 65536) {
      frame.write(126);
      frame.write(payload.length >>> 8);
      frame.write(payload.length & 0xff);
    } else {
      frame.write(127);
      for (int i = 7; i >= 0; i--) {
        frame.write((int) ((long) payload.length >>> (8 * i)) & 0xff);
      }
    }
    frame.write(payload);
    synchronized (this) {
      OutputStream out = s.getOutputStream();
      out.write(frame.toByteArray());
      out.flush();
    }
  }

  /** Whether the client acknowledged {@code envelopeId}, waiting up to {@code wait}. */
  public boolean awaitAck(String envelopeId, Duration wait) throws InterruptedException {
    long end = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < end) {
      if (acks.contains(envelopeId)) {
        return true;
      }
      Thread.sleep(10);
    }
    return false;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        handshake(s);
        client = s;
        sendText("{\"type\":\"hello\",\"num_connections\":1,\"connection_info\":{\"app_id\":\"A111\"}}");
        connected.countDown();
        read(s);
      } catch (IOException e) {
        // the client went away; wait for the next
      }
    }
  }

  private static void handshake(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0 || head.size() > 16384) {
        throw new IOException("bad handshake");
      }
      head.write(b);
    }
    String key = null;
    for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("sec-websocket-key:")) {
        key = line.substring(line.indexOf(':') + 1).strip();
      }
    }
    String accept;
    try {
      accept = Base64.getEncoder().encodeToString(
          MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.ISO_8859_1)));
    } catch (NoSuchAlgorithmException e) {
      throw new IOException(e);
    }
    s.getOutputStream().write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    s.getOutputStream().flush();
  }

  private void read(Socket s) throws IOException {
    DataInputStream in = new DataInputStream(s.getInputStream());
    while (true) {
      int b0 = in.readUnsignedByte();
      int b1 = in.readUnsignedByte();
      long len = b1 & 0x7f;
      if (len == 126) {
        len = in.readUnsignedShort();
      } else if (len == 127) {
        len = in.readLong();
      }
      byte[] mask = new byte[4];
      if ((b1 & 0x80) != 0) {
        in.readFully(mask);
      }
      byte[] payload = new byte[(int) len];
      in.readFully(payload);
      for (int i = 0; i < payload.length; i++) {
        payload[i] ^= mask[i % 4];
      }
      int opcode = b0 & 0x0f;
      if (opcode == 8) {
        s.close();
        return;
      }
      if (opcode == 1) {
        JsonNode ack = JSON.readTree(payload);
        if (ack.has("envelope_id")) {
          acks.add(ack.get("envelope_id").asText());
        }
      }
    }
  }

  @Override
  public void close() {
    try {
      server.close();
      Socket s = client;
      if (s != null) {
        s.close();
      }
    } catch (IOException e) {
      // closing
    }
  }
}
