package dev.tether.mcp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.ErrorCode;
import dev.tether.api.json.TetherJson;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The stdin the SDK's stdio transport reads, with three repairs.
 *
 * <p>The SDK stops reading for good at the first line it cannot decode as a JSON-RPC message, and
 * (since 2.1) at the first line longer than the transport's line limit; either would leave the
 * process running but deaf. This stream reads each line itself, at most {@code maxLineChars}
 * characters of it, and passes on only lines that are within the limit and decode with the SDK's
 * own {@link McpSchema#deserializeJsonRpcMessage}. For any other line it answers on the protocol
 * stream itself and skips it: parse error -32700, or invalid request -32600 with the request's id
 * when it has one; a {@code tools/call} over the limit gets a tool result with {@code isError:
 * true} and {@code FRAME_TOO_LARGE}, like any other message too large to send. A line over the
 * limit is scanned for its id as it streams past and never held whole. Blank lines are skipped.
 * Lines end at {@code \n}, {@code \r} or {@code \r\n}, as in the SDK's reader. Writes to the
 * protocol stream synchronize on it, as the SDK's writer does, so lines never interleave.
 *
 * <p>It also counts down {@code ended} when stdin ends or fails, so the runner knows the client
 * is gone, and then holds the end back from the SDK until {@code release} opens (the SDK's stdio
 * transport stops writing when its input ends, and the calls in progress are still to be answered).
 * Every {@code tools/call} it passes on is counted as expected in {@code calls}. Used by one reader thread.
 */
final class JsonRpcLineGuard extends InputStream {
  private static final System.Logger LOG = System.getLogger(JsonRpcLineGuard.class.getName());
  private static final Object NOT_JSON = new Object();

  private final Reader in;
  private final OutputStream protocolOut;
  private final CountDownLatch ended;
  private final InFlightCalls calls;
  private final CountDownLatch release;
  private final int maxLineChars;
  private final char[] buffer = new char[8192];
  private int bufferPosition;
  private int bufferLimit;
  private boolean skipLineFeed;
  private byte[] current = new byte[0];
  private int position;

  JsonRpcLineGuard(InputStream in, OutputStream protocolOut, CountDownLatch ended, int maxLineChars) {
    this(in, protocolOut, ended, maxLineChars, new InFlightCalls(), new CountDownLatch(0));
  }

  /**
   * @param calls told of every {@code tools/call} passed on ({@link InFlightCalls#expect})
   * @param release what end of input waits for before it reaches the SDK
   */
  JsonRpcLineGuard(InputStream in, OutputStream protocolOut, CountDownLatch ended, int maxLineChars, InFlightCalls calls,
      CountDownLatch release) {
    if (maxLineChars <= 0) {
      throw new IllegalArgumentException("maxLineChars must be > 0 but was " + maxLineChars);
    }
    this.in = new InputStreamReader(in, StandardCharsets.UTF_8);
    this.protocolOut = protocolOut;
    this.ended = ended;
    this.maxLineChars = maxLineChars;
    this.calls = calls;
    this.release = release;
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
        line = nextLine();
      } catch (IOException e) {
        ended.countDown();
        throw e;
      }
      if (line == null) {
        ended.countDown();
        // The SDK's stdio transport stops writing once its input ends: hold the end back until
        // the runner has let the calls in progress answer (see StdioServer).
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
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

  /**
   * The next line within the limit, without its terminator; "" for a line over the limit (already
   * answered and consumed); null at the end of stdin.
   */
  private String nextLine() throws IOException {
    StringBuilder line = new StringBuilder();
    while (true) {
      if (bufferPosition == bufferLimit && !refill()) {
        return line.length() == 0 ? null : line.toString();
      }
      if (skipLineFeed) {
        skipLineFeed = false;
        if (buffer[bufferPosition] == '\n') {
          bufferPosition++;
          continue;
        }
      }
      int start = bufferPosition;
      while (bufferPosition < bufferLimit && buffer[bufferPosition] != '\n' && buffer[bufferPosition] != '\r') {
        bufferPosition++;
      }
      int n = bufferPosition - start;
      int room = maxLineChars - line.length();
      if (n > room) {
        line.append(buffer, start, room);
        bufferPosition = start + room; // the rest of the line is still to be read
        rejectLongLine(line);
        return "";
      }
      line.append(buffer, start, n);
      if (bufferPosition < bufferLimit) {
        skipLineFeed = buffer[bufferPosition] == '\r';
        bufferPosition++;
        return line.toString();
      }
    }
  }

  private boolean refill() throws IOException {
    int n = in.read(buffer, 0, buffer.length);
    if (n <= 0) {
      return false;
    }
    bufferPosition = 0;
    bufferLimit = n;
    return true;
  }

  private boolean acceptable(String line) throws IOException {
    try {
      McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(McpJson.SDK_MAPPER, line);
      if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_TOOLS_CALL.equals(request.method())) {
        calls.expect();
      }
      return true;
    } catch (Exception e) {
      Object id = idOf(line);
      boolean parsed = id != NOT_JSON;
      LOG.log(System.Logger.Level.WARNING, "ignoring a stdin line that is not a JSON-RPC message: " + e.getMessage());
      answerError(parsed ? -32600 : -32700, parsed ? id : null,
          parsed ? "Invalid Request: not a JSON-RPC 2.0 message" : "Parse error: the line is not JSON");
      return false;
    }
  }

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

  /**
   * Answers a line longer than the limit and consumes the rest of it. {@code prefix} holds its
   * first {@code maxLineChars} characters; the rest is read as it streams past, only to find the
   * request's id and method, so the line is never held whole.
   */
  private void rejectLongLine(StringBuilder prefix) throws IOException {
    LineRemainder line = new LineRemainder(prefix);
    Object id = null;
    String method = null;
    try (JsonParser parser = TetherJson.factory().createParser(line)) {
      if (parser.nextToken() == JsonToken.START_OBJECT) {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          JsonToken value = parser.nextToken();
          if ("id".equals(field) && value == JsonToken.VALUE_STRING) {
            id = parser.getText();
          } else if ("id".equals(field) && value == JsonToken.VALUE_NUMBER_INT) {
            id = parser.getNumberValue();
          } else if ("method".equals(field) && value == JsonToken.VALUE_STRING) {
            method = parser.getText();
          } else {
            parser.skipChildren(); // strings are skipped without being built
          }
        }
      }
    } catch (IOException e) {
      // Not JSON, or cut short: answered below with what was found.
    }
    long length = line.drain();
    LOG.log(System.Logger.Level.WARNING, "ignoring a stdin line of " + length + " characters, over the limit of "
        + maxLineChars + " (method " + method + ", id " + id + ")");
    if (id != null && "tools/call".equals(method)) {
      Map<String, Object> response = new LinkedHashMap<>();
      response.put("jsonrpc", "2.0");
      response.put("id", id);
      response.put("result", ToolResults.error(ToolError.of(ErrorCode.FRAME_TOO_LARGE, "the tool call is "
          + length + " characters long; this server reads at most " + maxLineChars
          + ", more than any message within the frame limit needs, so send fewer or smaller images")));
      answer(response);
    } else {
      answerError(-32600, id, "Invalid Request: the message is " + length + " characters long; this server reads"
          + " at most " + maxLineChars + " characters per message");
    }
  }

  /**
   * The rest of a line over the limit: the characters already read, then the buffer and stdin up
   * to the line's terminator, which it consumes. Counts every character it passes.
   */
  private final class LineRemainder extends Reader {
    private final StringBuilder prefix;
    private int prefixPosition;
    private boolean done;
    private long length;

    LineRemainder(StringBuilder prefix) {
      this.prefix = prefix;
    }

    @Override
    public int read(char[] cbuf, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (prefixPosition < prefix.length()) {
        int n = Math.min(len, prefix.length() - prefixPosition);
        prefix.getChars(prefixPosition, prefixPosition + n, cbuf, off);
        prefixPosition += n;
        length += n;
        return n;
      }
      if (done || (bufferPosition == bufferLimit && !refill())) {
        done = true;
        return -1;
      }
      int start = bufferPosition;
      int end = Math.min(bufferLimit, start + len);
      while (bufferPosition < end && buffer[bufferPosition] != '\n' && buffer[bufferPosition] != '\r') {
        bufferPosition++;
      }
      int n = bufferPosition - start;
      System.arraycopy(buffer, start, cbuf, off, n);
      length += n;
      if (bufferPosition < end) { // the terminator
        skipLineFeed = buffer[bufferPosition] == '\r';
        bufferPosition++;
        done = true;
        if (n == 0) {
          return -1;
        }
      }
      return n;
    }

    /** Reads to the end of the line; the line's length in characters. */
    long drain() throws IOException {
      char[] skip = new char[8192];
      while (read(skip, 0, skip.length) >= 0) {
        // discard
      }
      return length;
    }

    @Override
    public void close() {
      // The line ends; stdin stays open.
    }
  }

  private void answerError(int code, Object id, String message) throws IOException {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("jsonrpc", "2.0");
    response.put("id", id);
    response.put("error", error);
    answer(response);
  }

  private void answer(Map<String, Object> response) throws IOException {
    byte[] bytes = (McpJson.write(response) + "\n").getBytes(StandardCharsets.UTF_8);
    calls.handedToOutput();
    synchronized (protocolOut) {
      protocolOut.write(bytes);
      protocolOut.flush();
    }
  }
}
