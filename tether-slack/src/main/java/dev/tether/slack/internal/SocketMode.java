package dev.tether.slack.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.json.TetherJson;
import dev.tether.chat.ChatLog;
import dev.tether.chat.ChatRetrier;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Socket Mode: events over a WebSocket the bridge opens itself, so no public endpoint is needed.
 * The URL comes from {@code apps.connections.open} (app-level token) and is fetched again for
 * every connection. Each envelope ({@code events_api}) is acknowledged at once with its
 * {@code envelope_id} (Slack redelivers what is not acknowledged within 3 seconds) and its payload
 * goes to the sink; {@code disconnect} and a closed or failed socket lead to a new connection after
 * the retrier's backoff. Text messages larger than {@value #MAX_MESSAGE} characters are dropped.
 *
 * <p>{@link #run} is the loop of one thread; the WebSocket's listener runs on the HTTP client's
 * threads and only parses, acknowledges and hands over.
 */
final class SocketMode {
  static final int MAX_MESSAGE = 1 << 20;
  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());

  private final SlackApi api;
  private final HttpClient http;
  private final ChatRetrier retrier;
  private final ChatLog log;
  private final Consumer<JsonNode> sink;
  private volatile boolean connected;

  SocketMode(SlackApi api, HttpClient http, ChatRetrier retrier, ChatLog log, Consumer<JsonNode> sink) {
    this.api = Objects.requireNonNull(api, "api");
    this.http = Objects.requireNonNull(http, "http");
    this.retrier = Objects.requireNonNull(retrier, "retrier");
    this.log = Objects.requireNonNull(log, "log");
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  /** Whether a socket is open and Slack said hello. */
  boolean connected() {
    return connected;
  }

  /** Connects, and reconnects after each end, until the bridge stops. */
  void run() {
    long backoff = retrier.initial().toMillis();
    while (!retrier.stopping()) {
      CompletableFuture<String> ended = new CompletableFuture<>();
      WebSocket socket = null;
      try {
        URI url = retrier.call("apps.connections.open", api::openConnection);
        socket = retrier.waitingOn(http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
            .buildAsync(url, new Listener(ended))).get(30, TimeUnit.SECONDS);
        String why = retrier.waitingOn(ended).get();
        connected = false;
        log.info("Slack Socket Mode connection ended (" + why + "); reconnecting");
        backoff = retrier.initial().toMillis();
      } catch (InterruptedIOException e) {
        break;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (Exception e) {
        connected = false;
        if (retrier.stopping()) {
          break;
        }
        log.warn("Slack Socket Mode: " + log.describe(e) + "; reconnecting in " + backoff + " ms");
        try {
          retrier.sleep(backoff);
        } catch (InterruptedIOException stop) {
          break;
        }
        backoff = Math.min(retrier.max().toMillis(), backoff * 2);
      } finally {
        if (socket != null) {
          socket.abort();
        }
      }
    }
    connected = false;
  }

  private final class Listener implements WebSocket.Listener {
    private final CompletableFuture<String> ended;
    private final StringBuilder text = new StringBuilder();

    Listener(CompletableFuture<String> ended) {
      this.ended = ended;
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      if (text.length() + data.length() <= MAX_MESSAGE) {
        text.append(data);
      } else {
        text.setLength(MAX_MESSAGE + 1);
      }
      if (last) {
        String message = text.length() > MAX_MESSAGE ? null : text.toString();
        text.setLength(0);
        if (message == null) {
          log.warn("Slack Socket Mode: dropped a message over " + MAX_MESSAGE + " characters");
        } else {
          envelope(ws, message);
        }
      }
      ws.request(1);
      return null;
    }

    private void envelope(WebSocket ws, String message) {
      JsonNode root;
      try {
        root = JSON.readTree(message);
      } catch (IOException e) {
        log.warn("Slack Socket Mode: dropped a message that is not JSON");
        return;
      }
      String type = root == null ? "" : root.path("type").asText("");
      switch (type) {
        case "hello" -> connected = true;
        case "disconnect" -> ended.complete("Slack asked to reconnect: " + root.path("reason").asText("no reason"));
        default -> {
          String id = root.path("envelope_id").asText("");
          if (!id.isEmpty()) {
            ws.sendText(JSON.createObjectNode().put("envelope_id", id).toString(), true);
          }
          if ("events_api".equals(type)) {
            sink.accept(root.path("payload"));
          }
        }
      }
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
      ended.complete("closed " + statusCode);
      return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
      ended.complete("failed: " + log.describe(error));
    }
  }
}
