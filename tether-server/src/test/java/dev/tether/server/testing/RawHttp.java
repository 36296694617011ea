package dev.tether.server.testing;

import dev.tether.client.HostAddress;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.AsyncRequestContent;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Transport;

/** A plain HTTP client for tests that need status codes, headers and chunked bodies. */
public final class RawHttp implements AutoCloseable {
  private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER =
      new com.fasterxml.jackson.databind.ObjectMapper(dev.tether.api.json.TetherJson.newFactory());

  public record Reply(int status, String body, byte[] bytes, String contentType) {
    public Reply(int status, String body) {
      this(status, body, body.getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
    }

    public JsonNode json() throws IOException {
      return MAPPER.readTree(body);
    }

    public String errorCode() throws IOException {
      return json().path("error").path("code").asText();
    }
  }

  private final HttpClient http = new HttpClient();
  private final HostAddress address;

  public RawHttp(HostAddress address) throws Exception {
    this.address = address;
    http.start();
  }

  private Request request(String path) {
    String base = address instanceof HostAddress.Tcp t ? "http://" + t.host() + ":" + t.port() : "http://localhost";
    Request r = http.newRequest(base + path).timeout(60, TimeUnit.SECONDS);
    if (address instanceof HostAddress.Unix u) {
      r.transport(new Transport.TCPUnix(u.path()));
    }
    return r;
  }

  public Reply get(String path) throws Exception {
    return reply(request(path).send());
  }

  /** A GET whose answer may be large (a poll carrying a 28 MB frame): buffered up to {@code maxBytes}. */
  public Reply getLarge(String path, int maxBytes) throws Exception {
    var listener = new org.eclipse.jetty.client.CompletableResponseListener(request(path), maxBytes);
    return reply(listener.send().get(120, TimeUnit.SECONDS));
  }

  public Reply get(String path, String authorization) throws Exception {
    return reply(request(path).headers(h -> h.put("Authorization", authorization)).send());
  }

  public Reply post(String path, byte[] body) throws Exception {
    return reply(request(path).method(HttpMethod.POST).body(new BytesRequestContent("application/json", body)).send());
  }

  /**
   * POSTs {@code body} and returns the server's answer also when the server answers early (a 503
   * or 413 before the body is read) and closes while this client still sends: the response is
   * read concurrently with the upload, and a failed write after a complete answer (EPIPE,
   * "Broken pipe", or a reset) does not hide that answer. Fails only when no answer arrived.
   */
  public Reply postReadingEarlyAnswer(String path, byte[] body) throws Exception {
    java.util.concurrent.CompletableFuture<Reply> answer = new java.util.concurrent.CompletableFuture<>();
    request(path).method(HttpMethod.POST).body(new BytesRequestContent("application/json", body))
        .send(new org.eclipse.jetty.client.BufferingResponseListener(1 << 20) {
          @Override
          public void onComplete(org.eclipse.jetty.client.Result result) {
            if (result.getResponseFailure() == null && result.getResponse().getStatus() > 0) {
              // The answer is whole: a request failure now is only the rest of the upload refused.
              answer.complete(new Reply(result.getResponse().getStatus(), getContentAsString(), getContent(), getMediaType()));
            } else {
              answer.completeExceptionally(result.getFailure());
            }
          }
        });
    return answer.get(120, TimeUnit.SECONDS);
  }

  public Reply method(String method, String path) throws Exception {
    return reply(request(path).method(method).send());
  }

  /**
   * POSTs {@code total} bytes of {@code filler} without a Content-Length (chunked), 64 KiB at a
   * time, and returns whatever the server answers, also when it answers before the body ends.
   */
  public Reply postChunked(String path, byte[] head, long total, byte filler) throws Exception {
    AsyncRequestContent content = new AsyncRequestContent("application/json");
    var listener = new org.eclipse.jetty.client.CompletableResponseListener(
        request(path).method(HttpMethod.POST).body(content), 1 << 20);
    var future = listener.send();
    content.write(ByteBuffer.wrap(head), org.eclipse.jetty.util.Callback.NOOP);
    long sent = head.length;
    byte[] chunk = new byte[64 * 1024];
    java.util.Arrays.fill(chunk, filler);
    while (sent < total && !future.isDone()) {
      int n = (int) Math.min(chunk.length, total - sent);
      var done = new java.util.concurrent.CompletableFuture<Void>();
      content.write(ByteBuffer.wrap(chunk, 0, n), org.eclipse.jetty.util.Callback.from(() -> done.complete(null), done::completeExceptionally));
      try {
        done.get(30, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        break; // the server refused the rest; its answer is in the response
      }
      sent += n;
    }
    content.close();
    return reply(future.get(60, TimeUnit.SECONDS));
  }

  private static Reply reply(ContentResponse r) {
    return new Reply(r.getStatus(), r.getContentAsString(), r.getContent(), r.getMediaType());
  }

  /** Any method with an optional body of {@code contentType} (none when null). */
  public Reply send(String method, String path, String contentType, byte[] body) throws Exception {
    Request r = request(path).method(method);
    if (body != null && (body.length > 0 || contentType != null)) {
      r.body(new BytesRequestContent(contentType == null ? "application/octet-stream" : contentType, body));
    }
    return reply(r.send());
  }

  /** As {@link #send(String, String, String, byte[])} with an {@code Authorization} header. */
  public Reply send(String method, String path, String contentType, byte[] body, String authorization) throws Exception {
    Request r = request(path).method(method).headers(h -> h.put("Authorization", authorization));
    if (body != null && (body.length > 0 || contentType != null)) {
      r.body(new BytesRequestContent(contentType == null ? "application/octet-stream" : contentType, body));
    }
    return reply(r.send());
  }

  @Override
  public void close() {
    try {
      http.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping failed", e);
    }
  }
}
