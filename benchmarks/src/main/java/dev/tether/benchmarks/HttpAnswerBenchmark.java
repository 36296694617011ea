package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.client.HostAddress;
import dev.tether.images.Images;
import dev.tether.server.TetherServer;
import dev.tether.store.MemoryTetherStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * An HTTP answer carrying one 28 MB inline frame (an {@code assistant.done} with four 5 MiB PNG
 * images) from a real {@link TetherServer} on 127.0.0.1, read to its end by a client on a plain
 * socket: a poll ({@code GET .../tether/poll}, one JSON page) and a stream
 * ({@code GET .../tether/stream?after_seq=0}, NDJSON, read until the frame's line ends). The floor
 * ({@code socketFloor}) is a plain {@link ServerSocket} in the same JVM writing the poll's exact
 * response (headers and body, captured at set-up) with one {@code OutputStream.write}, read by the
 * same client code: what the bytes cost to move over loopback. Allocation ({@code -prof gc})
 * counts the server's threads as well as the client's.
 *
 * <pre>
 * ./mvnw -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar HttpAnswerBenchmark -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class HttpAnswerBenchmark {
  static final int IMAGE_BYTES = 5 << 20;
  private static final String TOKEN = "bench-token-0123456789abcdef0123456789";

  private Path dir;
  private TetherServer server;
  private int port;
  private ServerSocket floorServer;
  private Thread floorThread;
  private byte[] pollResponse;
  private int lineLength;
  private final byte[] sink = new byte[64 * 1024];

  @Setup
  public void setUp() throws IOException {
    Random random = new Random(28);
    List<Image> images = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      images.add(Images.fromBytes(ClaudeRequestBenchmark.png(1920, 1080, IMAGE_BYTES, random), MediaType.PNG));
    }
    Frame frame = Frames.assistantDone(SessionKey.host("default"), "m-1", "Here are the four charts.", images);
    MemoryTetherStore store = MemoryTetherStore.create();
    long seq = store.append("bench", frame);
    lineLength = FrameCodec.standard().write(frame.withSeq(seq)).length + 1;
    dir = BenchFiles.tempDir("bench-http-answer");
    server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(TOKEN).store(store)
        .workspaces(dir.resolve("ws")).instance("bench").start();
    port = ((HostAddress.Tcp) server.boundAddress()).port();

    pollResponse = exchange(port, "/v1/instances/bench/tether/poll");
    if (pollResponse.length < 4 * IMAGE_BYTES * 4 / 3) {
      throw new IllegalStateException("the poll answered " + pollResponse.length + " bytes, not the frame");
    }
    floorServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    floorThread = new Thread(this::serveFloor, "socket-floor");
    floorThread.setDaemon(true);
    floorThread.start();
    if (poll() != socketFloor() || stream() < lineLength) {
      throw new IllegalStateException("the poll, its floor and the stream did not read the frame");
    }
  }

  @TearDown
  public void tearDown() throws IOException {
    floorServer.close();
    server.close();
    BenchFiles.delete(dir);
  }

  @Benchmark
  public long poll() throws IOException {
    return get(port, "/v1/instances/bench/tether/poll", false);
  }

  @Benchmark
  public long stream() throws IOException {
    return get(port, "/v1/instances/bench/tether/stream?after_seq=0", true);
  }

  @Benchmark
  public long socketFloor() throws IOException {
    return get(floorServer.getLocalPort(), "/floor", false);
  }

  /** The floor's server: reads a request's head, writes the captured poll response, closes. */
  private void serveFloor() {
    while (!floorServer.isClosed()) {
      try (Socket s = floorServer.accept()) {
        InputStream in = s.getInputStream();
        for (int state = 0; state < 4; ) { // up to the blank line that ends the request head
          int b = in.read();
          if (b < 0) {
            break;
          }
          state = (b == '\r' && state % 2 == 0) || (b == '\n' && state % 2 == 1) ? state + 1 : 0;
        }
        OutputStream out = s.getOutputStream();
        out.write(pollResponse);
        out.flush();
        s.shutdownOutput();
        while (in.read(sink) >= 0) {
          // until the client closes
        }
      } catch (IOException e) {
        // the floor server closed, or a client went away: next
      }
    }
  }

  private static byte[] request(String path) {
    return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** One request on a fresh connection; returns the body bytes read (the stream's until the frame's line ends). */
  private long get(int port, String path, boolean chunkedLine) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      s.getOutputStream().write(request(path));
      InputStream in = s.getInputStream();
      String head = head(in);
      if (!head.startsWith("HTTP/1.1 200")) {
        throw new IOException("answer: " + head);
      }
      if (!chunkedLine) {
        long length = Long.parseLong(header(head, "content-length"));
        return skip(in, length);
      }
      long data = 0;
      while (data < lineLength) { // chunked: size line, data, CRLF
        String size = line(in);
        if (size.isEmpty()) {
          continue; // the blank line of a heartbeat would be data; this is the CRLF after a chunk
        }
        long n = Long.parseLong(size.split(";")[0].trim(), 16);
        if (n == 0) {
          break;
        }
        data += skip(in, n);
      }
      return data;
    }
  }

  private long skip(InputStream in, long n) throws IOException {
    long left = n;
    while (left > 0) {
      int r = in.read(sink, 0, (int) Math.min(sink.length, left));
      if (r < 0) {
        throw new IOException("the answer ended " + left + " bytes early");
      }
      left -= r;
    }
    return n;
  }

  private static String head(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    for (String l = line(in); !l.isEmpty(); l = line(in)) {
      head.append(l).append('\n');
    }
    return head.toString();
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder s = new StringBuilder();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("the answer ended in a line: " + s);
      }
      if (b != '\r') {
        s.append((char) b);
      }
    }
    return s.toString();
  }

  private static String header(String head, String name) throws IOException {
    for (String l : head.split("\n")) {
      int colon = l.indexOf(':');
      if (colon > 0 && l.substring(0, colon).trim().equalsIgnoreCase(name)) {
        return l.substring(colon + 1).trim();
      }
    }
    throw new IOException("no " + name + " in " + head);
  }

  /** The whole response to one request, head and body, for the floor to replay. */
  private static byte[] exchange(int port, String path) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      s.getOutputStream().write(request(path));
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      String head = head(in);
      all.write(head.replace("\n", "\r\n").getBytes(StandardCharsets.US_ASCII));
      all.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      all.write(in.readNBytes(Integer.parseInt(header(head, "content-length"))));
      return all.toByteArray();
    }
  }
}
