package dev.tether.server.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.json.TetherJson;
import dev.tether.client.HostAddress;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.io.Transport;

/** Reads an NDJSON stream line by line, skipping heartbeats (Unix socket). */
public final class StreamReader implements AutoCloseable {
  private static final ObjectMapper MAPPER = new ObjectMapper(TetherJson.newFactory());

  private final HttpClient http = new HttpClient();
  private final BufferedReader reader;
  private final Request request;

  public StreamReader(HostAddress.Unix address, String path) throws Exception {
    http.start();
    request = http.newRequest("http://localhost" + path).transport(new Transport.TCPUnix(address.path()));
    InputStreamResponseListener listener = new InputStreamResponseListener();
    request.send(listener);
    var response = listener.get(30, TimeUnit.SECONDS);
    if (response.getStatus() != 200) {
      throw new IllegalStateException("stream answered " + response.getStatus());
    }
    reader = new BufferedReader(new InputStreamReader(listener.getInputStream(), StandardCharsets.UTF_8));
  }

  /** The next non-empty line as JSON. */
  public JsonNode nextFrame() throws Exception {
    String line;
    do {
      line = reader.readLine();
      if (line == null) {
        throw new IllegalStateException("the stream ended");
      }
    } while (line.isBlank());
    return MAPPER.readTree(line);
  }

  @Override
  public void close() {
    try {
      request.abort(new java.io.IOException("test done"));
      http.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping failed", e);
    }
  }
}
