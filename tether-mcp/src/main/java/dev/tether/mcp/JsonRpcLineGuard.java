package dev.tether.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The stdin the SDK's stdio transport reads, with two repairs.
 *
 * <p>The SDK stops reading for good at the first line it cannot decode as a JSON-RPC message, so
 * one garbled line from a client would silently end the server. This stream decodes each line
 * with the SDK's own {@link McpSchema#deserializeJsonRpcMessage} first and passes on only lines
 * that decode; for any other line it answers on the protocol stream itself (parse error -32700, or
 * invalid request -32600 with the request's id when it has one) and skips it. Blank lines are
 * skipped. Writes to the protocol stream synchronize on it, as the SDK's writer does, so lines
 * never interleave.
 *
 * <p>It also counts down {@code ended} when stdin ends or fails, so the runner knows the client
 * is gone. Used by one reader thread.
 */
final class JsonRpcLineGuard extends InputStream {
  private static final System.Logger LOG = System.getLogger(JsonRpcLineGuard.class.getName());

  private final BufferedReader lines;
  private final OutputStream protocolOut;
  private final CountDownLatch ended;
  private byte[] current = new byte[0];
  private int position;

  JsonRpcLineGuard(InputStream in, OutputStream protocolOut, CountDownLatch ended) {
    this.lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    this.protocolOut = protocolOut;
    this.ended = ended;
  }

  @Override
  public int read() throws IOException {
    if (!fill()) {
      return -1;
    }
    return current[position++] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, current.length - position);
    System.arraycopy(current, position, b, off, n);
    position += n;
    return n;
  }

  /** Makes unread bytes available; false at the end of stdin. */
  private boolean fill() throws IOException {
    while (position == current.length) {
      String line;
      try {
        line = lines.readLine();
      } catch (IOException e) {
        ended.countDown();
        throw e;
      }
      if (line == null) {
        ended.countDown();
        return false;
      }
      if (line.isBlank() || !acceptable(line)) {
        continue;
      }
      current = (line + "\n").getBytes(StandardCharsets.UTF_8);
      position = 0;
    }
    return true;
  }

  private boolean acceptable(String line) throws IOException {
    try {
      McpSchema.deserializeJsonRpcMessage(McpJson.SDK_MAPPER, line);
      return true;
    } catch (Exception e) {
      Object id = idOf(line);
      boolean parsed = id != NOT_JSON;
      LOG.log(System.Logger.Level.WARNING, "ignoring a stdin line that is not a JSON-RPC message: " + e.getMessage());
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("code", parsed ? -32600 : -32700);
      error.put("message", parsed ? "Invalid Request: not a JSON-RPC 2.0 message" : "Parse error: the line is not JSON");
      Map<String, Object> response = new LinkedHashMap<>();
      response.put("jsonrpc", "2.0");
      response.put("id", parsed ? id : null);
      response.put("error", error);
      byte[] bytes = (McpJson.write(response) + "\n").getBytes(StandardCharsets.UTF_8);
      synchronized (protocolOut) {
        protocolOut.write(bytes);
        protocolOut.flush();
      }
      return false;
    }
  }

  private static final Object NOT_JSON = new Object();

  /** The id of a JSON object line (null when it has none), or {@link #NOT_JSON}. */
  private static Object idOf(String line) {
    try {
      Object value = McpJson.MAPPER.readValue(line, Object.class);
      if (value instanceof Map<?, ?> map) {
        Object id = map.get("id");
        return id instanceof String || id instanceof Number ? id : null;
      }
      return null;
    } catch (IOException e) {
      return NOT_JSON;
    }
  }
}
