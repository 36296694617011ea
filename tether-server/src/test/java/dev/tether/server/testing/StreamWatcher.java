package dev.tether.server.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Watches a host's NDJSON stream ({@code GET .../tether/stream}) over a plain TCP socket from a
 * background thread, so a test can see both its frames and its end (a revoked token, a deleted
 * instance): every line (chunk sizes and frames alike) goes to a queue, then {@link #EOF} when the
 * stream ends or the connection is reset.
 */
public final class StreamWatcher implements AutoCloseable {
  /** The line that marks the end of the stream. */
  public static final String EOF = "<end of stream>";

  private final Socket socket;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private StreamWatcher(Socket socket) {
    this.socket = socket;
  }

  /**
   * Opens {@code base}'s stream of every channel and session of {@code instance} with {@code token}.
   *
   * @throws AssertionError when the host does not answer 200
   */
  public static StreamWatcher open(String base, String instance, String token) throws IOException {
    URI u = URI.create(base);
    Socket socket = new Socket(u.getHost(), u.getPort());
    socket.setSoTimeout(30_000);
    OutputStream out = socket.getOutputStream();
    out.write(("GET /v1/instances/" + instance + "/tether/stream?channel=*&session_id=* HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        + token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    String status = in.readLine();
    if (status == null || !status.contains(" 200 ")) {
      socket.close();
      throw new AssertionError("stream status: " + status);
    }
    StreamWatcher watcher = new StreamWatcher(socket);
    Thread reader = new Thread(() -> watcher.read(in), "stream-watcher");
    reader.setDaemon(true);
    reader.start();
    return watcher;
  }

  private void read(BufferedReader in) {
    try (socket) {
      String line;
      while ((line = in.readLine()) != null) {
        lines.add(line);
        if (line.equals("0")) {
          break; // the last chunk: the stream ended
        }
      }
    } catch (IOException e) {
      // reset or timeout: ended too
    }
    lines.add(EOF);
  }

  /**
   * The next frame's JSON line within {@code timeoutMs}.
   *
   * @throws AssertionError when the stream ends or no frame comes in time
   */
  public String nextFrame(long timeoutMs) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (System.nanoTime() < deadline) {
      String line = lines.poll(100, TimeUnit.MILLISECONDS);
      if (line != null && line.startsWith("{")) {
        return line;
      }
      if (EOF.equals(line)) {
        throw new AssertionError("the stream ended");
      }
    }
    throw new AssertionError("no frame within " + timeoutMs + " ms");
  }

  /** Everything the stream still sends within {@code timeoutMs}, ending with {@link #EOF} when it ended. */
  public String drain(long timeoutMs) throws InterruptedException {
    StringBuilder all = new StringBuilder();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (System.nanoTime() < deadline) {
      String line = lines.poll(50, TimeUnit.MILLISECONDS);
      if (line != null) {
        all.append(line).append('\n');
        if (EOF.equals(line)) {
          break;
        }
      }
    }
    return all.toString().strip();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
