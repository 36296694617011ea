package dev.tether.server.internal;

import dev.tether.server.testing.RawSocket;
import dev.tether.client.HostAddress;
import dev.tether.api.ErrorCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every answer of the server, including the errors Jetty raises before our handler runs, is the
 * JSON error body; sent with raw bytes on a real Unix socket.
 */
class HttpErrorContractTest {
  private static final String BASE = "/v1/instances/vm1/tether";
  private static final String FRAME = "{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"hi\"}}";

  @TempDir Path dir;
  private Daemon server;
  private HostAddress.Unix address;

  @BeforeEach
  void start() throws Exception {
    address = new HostAddress.Unix(dir.resolve("tether.sock"));
    server = Daemon.start(address, MemoryTetherStore.create(), null, 16);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RawSocket.Response get(String target) throws Exception {
    return RawSocket.exchange(address, "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
  }

  private RawSocket.Response post(String headers, String body) throws Exception {
    return RawSocket.exchange(address, "POST " + BASE + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n" + body);
  }

  private static String assertJsonError(RawSocket.Response r, int status, String code) throws Exception {
    assertEquals(status, r.status(), r.headers() + "\n" + r.body());
    assertEquals("application/json", r.contentType(), r.headers());
    JsonNode error = Json.MAPPER.readTree(r.body()).path("error");
    assertEquals(code, error.path("code").asText(), r.body());
    assertFalse(error.path("message").asText().isBlank(), r.body());
    return error.path("message").asText();
  }

  @Test
  void badPercentEncodingInPath_400JsonNotHtml() throws Exception {
    assertJsonError(get("/v1/instances/%zz/tether/poll"), 400, ErrorCode.BAD_REQUEST.name());
  }

  @Test
  void dotDotInPath_400Json() throws Exception {
    assertJsonError(get("/../../etc/passwd"), 400, ErrorCode.BAD_REQUEST.name());
  }

  @Test
  void encodedDotDotInPath_jsonError() throws Exception {
    RawSocket.Response r = get("/v1/instances/%2e%2e/tether/poll");
    assertEquals("application/json", r.contentType(), r.headers() + r.body());
    Json.MAPPER.readTree(r.body()).path("error").path("code").asText();
  }

  @Test
  void badUtf8InUri_400Json() throws Exception {
    assertJsonError(get("/v1/instances/%ff%fe/tether/poll"), 400, ErrorCode.BAD_REQUEST.name());
  }

  @Test
  void malformedEncodingInQuery_400InvalidArgument_notAServerFailure() throws Exception {
    for (String query : java.util.List.of("channel=%C0%AE%C0%AE", "channel=%zz", "channel=%", "session_id=%ff%fe", "types=a%C0")) {
      assertJsonError(get(BASE + "/poll?" + query), 400, ErrorCode.INVALID_ARGUMENT.name());
      assertJsonError(get(BASE + "/watermark?" + query), 400, ErrorCode.INVALID_ARGUMENT.name());
    }
    assertEquals(0, server.handler().failures(), "a client's bad encoding is not logged as the server's failure");
  }

  @Test
  void rawNonAsciiByteInUri_400Json() throws Exception {
    assertJsonError(get("/v1/instances/\u00ff\u00fe/tether/poll"), 400, ErrorCode.BAD_REQUEST.name());
  }

  @Test
  void uriLongerThanTheHeaderBuffer_414Json() throws Exception {
    assertJsonError(get(BASE + "/poll?after_seq=" + "1".repeat(20_000)), 414, ErrorCode.URI_TOO_LONG.name());
  }

  @Test
  void headersLargerThanTheBuffer_431Json() throws Exception {
    RawSocket.Response r = RawSocket.exchange(address,
        "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n");
    assertJsonError(r, 431, ErrorCode.HEADERS_TOO_LARGE.name());
  }

  @Test
  void badChunkSize_400Json() throws Exception {
    assertJsonError(post("Transfer-Encoding: chunked\r\n", "zz\r\nabc\r\n0\r\n\r\n"), 400, "MALFORMED_FRAME");
  }

  @Test
  void badChunkAfterGoodData_400MalformedFrame() throws Exception {
    String first = FRAME.substring(0, 10);
    String body = Integer.toHexString(first.length()) + "\r\n" + first + "\r\nq!\r\n";
    assertJsonError(post("Transfer-Encoding: chunked\r\n", body), 400, "MALFORMED_FRAME");
    assertEquals(0, server.store().lastSeq("vm1"));
  }

  @Test
  void conflictingContentLengths_400Json() throws Exception {
    assertJsonError(post("Content-Length: 5\r\nContent-Length: 6\r\n", FRAME), 400, ErrorCode.BAD_REQUEST.name());
  }

  @Test
  void invalidContentLength_400Json() throws Exception {
    assertJsonError(post("Content-Length: abc\r\n", FRAME), 400, ErrorCode.BAD_REQUEST.name());
  }

  @Test
  void contentLengthAndChunked_400Json() throws Exception {
    RawSocket.Response r = post("Content-Length: 3\r\nTransfer-Encoding: chunked\r\n", "3\r\nabc\r\n0\r\n\r\n");
    assertEquals("application/json", r.contentType(), r.headers() + r.body());
    assertEquals(400, r.status(), r.body());
  }

  @Test
  void bodyCutShortByTheClient_400MalformedFrameAndNothingStored() throws Exception {
    try (RawSocket s = RawSocket.connect(address)) {
      s.send(("POST " + BASE + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + FRAME).getBytes(StandardCharsets.UTF_8));
      s.shutdownOutput();
      assertJsonError(s.readResponse(30_000), 400, "MALFORMED_FRAME");
    }
    assertEquals(0, server.store().lastSeq("vm1"));
  }

  @Test
  void contentEncodingGzip_415Json() throws Exception {
    String msg = assertJsonError(post("Content-Encoding: gzip\r\nContent-Length: " + FRAME.length() + "\r\n", FRAME),
        415, ErrorCode.UNSUPPORTED_CONTENT_ENCODING.name());
    assertEquals(0, server.store().lastSeq("vm1"), msg);
  }

  @Test
  void contentEncodingIdentity_isAccepted() throws Exception {
    RawSocket.Response r = post("Content-Encoding: identity\r\nContent-Length: " + FRAME.length() + "\r\n", FRAME);
    assertEquals(202, r.status(), r.body());
  }

  @Test
  void transferEncodingGzip_501Json() throws Exception {
    RawSocket.Response r = post("Transfer-Encoding: gzip, chunked\r\n", "3\r\nabc\r\n0\r\n\r\n");
    assertJsonError(r, 501, ErrorCode.NOT_IMPLEMENTED.name());
    assertEquals(0, server.store().lastSeq("vm1"));
  }

  @Test
  void garbageRequestLine_400Json() throws Exception {
    assertJsonError(RawSocket.exchange(address, "HELLO\r\n\r\n"), 400, ErrorCode.BAD_REQUEST.name());
  }

  @Test
  void validRequestAfterAllThat_stillServed() throws Exception {
    badChunkSize_400Json();
    RawSocket.Response r = post("Content-Length: " + FRAME.length() + "\r\n", FRAME);
    assertEquals(202, r.status(), r.body());
  }
}
