package dev.tether.server.testing;

import dev.tether.client.HostAddress;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bytes on a socket, for requests no HTTP client would send (bad chunking, raw percent escapes,
 * conflicting lengths, bodies cut short). Reads one response: headers, then Content-Length bytes
 * or up to the close.
 */
public final class RawSocket implements AutoCloseable {
  private static final Pattern STATUS = Pattern.compile("^HTTP/1\\.[01] (\\d{3})");
  private static final Pattern LENGTH = Pattern.compile("(?im)^content-length:\\s*(\\d+)\\s*$");

  public record Response(int status, String headers, String body) {
    public String contentType() {
      Matcher m = Pattern.compile("(?im)^content-type:\\s*(\\S+)").matcher(headers);
      return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : "";
    }
  }

  private final SocketChannel channel;

  private RawSocket(SocketChannel channel) {
    this.channel = channel;
  }

  public static RawSocket connect(HostAddress address) throws IOException {
    return connect(address, -1);
  }

  /** As {@link #connect(HostAddress)}, with a receive buffer of {@code receiveBuffer} bytes (-1: the default). */
  public static RawSocket connect(HostAddress address, int receiveBuffer) throws IOException {
    SocketChannel ch = SocketChannel.open(address instanceof HostAddress.Unix ? StandardProtocolFamily.UNIX : StandardProtocolFamily.INET);
    if (receiveBuffer > 0) {
      ch.setOption(java.net.StandardSocketOptions.SO_RCVBUF, receiveBuffer);
    }
    if (address instanceof HostAddress.Unix u) {
      ch.connect(UnixDomainSocketAddress.of(u.path()));
    } else {
      HostAddress.Tcp t = (HostAddress.Tcp) address;
      ch.connect(new InetSocketAddress(t.host(), t.port()));
    }
    return new RawSocket(ch);
  }

  /**
   * Reads and drops whatever arrives until the server closes the connection; false when it is
   * still open after {@code timeoutMs}.
   */
  public boolean awaitClosed(long timeoutMs) throws Exception {
    CompletableFuture<Boolean> f = CompletableFuture.supplyAsync(() -> {
      ByteBuffer b = ByteBuffer.allocate(8192);
      try {
        while (channel.read(b) >= 0) {
          b.clear();
        }
      } catch (IOException e) {
        // reset by the server: closed too
      }
      return true;
    });
    try {
      return f.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      channel.close();
      return false;
    }
  }

  /** Sends {@code request} (ISO-8859-1 text, so raw bytes 0x80..0xFF pass through) and reads the answer. */
  public static Response exchange(HostAddress address, String request) throws Exception {
    try (RawSocket s = connect(address)) {
      s.send(request.getBytes(StandardCharsets.ISO_8859_1));
      return s.readResponse(30_000);
    }
  }

  public void send(byte[] bytes) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      channel.write(b);
    }
  }

  public void shutdownOutput() throws IOException {
    channel.shutdownOutput();
  }

  /** Reads one response; closes the socket and fails when none is complete within {@code timeoutMs}. */
  public Response readResponse(long timeoutMs) throws Exception {
    CompletableFuture<Response> f = CompletableFuture.supplyAsync(() -> {
      try {
        return read();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    try {
      return f.get(timeoutMs, TimeUnit.MILLISECONDS);
    } finally {
      if (!f.isDone()) {
        channel.close();
      }
    }
  }

  private Response read() throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteBuffer buf = ByteBuffer.allocate(8192);
    int headerEnd = -1;
    long length = -1;
    while (true) {
      buf.clear();
      int n = channel.read(buf);
      if (n < 0) {
        break;
      }
      all.write(buf.array(), 0, n);
      String text = all.toString(StandardCharsets.ISO_8859_1);
      if (headerEnd < 0) {
        headerEnd = text.indexOf("\r\n\r\n");
        if (headerEnd >= 0) {
          Matcher m = LENGTH.matcher(text.substring(0, headerEnd));
          length = m.find() ? Long.parseLong(m.group(1)) : -1;
        }
      }
      if (headerEnd >= 0 && length >= 0 && all.size() >= headerEnd + 4 + length) {
        break;
      }
    }
    String text = all.toString(StandardCharsets.UTF_8);
    int end = text.indexOf("\r\n\r\n");
    if (end < 0) {
      throw new IOException("no complete response, got: " + text);
    }
    Matcher m = STATUS.matcher(text);
    if (!m.find()) {
      throw new IOException("no status line in: " + text);
    }
    return new Response(Integer.parseInt(m.group(1)), text.substring(0, end), text.substring(end + 4));
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
