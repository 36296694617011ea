package dev.tether.cli;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A stand-in for a model provider on 127.0.0.1: records the request and answers with a canned
 * stream in the provider's real wire format, written line group by line group with a flush
 * between them, as a streaming provider does.
 */
final class FakeProvider implements AutoCloseable {
  record Recorded(String path, java.util.Map<String, String> headers, String body) {}

  private final Server server = new Server();
  private final ConcurrentHashMap<String, Recorded> recorded = new ConcurrentHashMap<>();
  private volatile int status = 200;
  private volatile String contentType = "text/event-stream";
  private volatile List<String> pieces = List.of();

  FakeProvider() throws Exception {
    ServerConnector c = new ServerConnector(server);
    c.setHost("127.0.0.1");
    c.setPort(0);
    server.addConnector(c);
    server.setHandler(new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String body = Content.Source.asString(request, StandardCharsets.UTF_8);
        java.util.Map<String, String> headers = new java.util.HashMap<>();
        request.getHeaders().forEach(f -> headers.put(f.getLowerCaseName(), f.getValue()));
        recorded.put("last", new Recorded(request.getHttpURI().getPath(), headers, body));
        response.setStatus(status);
        response.getHeaders().put("content-type", contentType);
        for (String piece : pieces) {
          Callback.Completable written = new Callback.Completable();
          response.write(false, ByteBuffer.wrap(piece.getBytes(StandardCharsets.UTF_8)), written);
          written.get();
        }
        response.write(true, ByteBuffer.allocate(0), callback);
        return true;
      }
    });
    server.start();
  }

  /** The next answers: status, content type and the pieces written one after another. */
  void answer(int status, String contentType, List<String> pieces) {
    this.status = status;
    this.contentType = contentType;
    this.pieces = List.copyOf(pieces);
  }

  Recorded last() {
    return recorded.get("last");
  }

  URI base() {
    return URI.create("http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort());
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping failed", e);
    }
  }
}
