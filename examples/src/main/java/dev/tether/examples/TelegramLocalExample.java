package dev.tether.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Frames;
import dev.tether.api.Payload;
import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.server.TetherServer;
import dev.tether.telegram.BotToken;
import dev.tether.telegram.TelegramBridge;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Telegram bridge working without a Telegram account: a local server that speaks the few Bot
 * API methods the bridge uses (getUpdates, sendMessage, sendChatAction) stands in for
 * api.telegram.org, with one chat message queued. The bridge forwards it to an embedded tether
 * server; an "agent" answers through the server's in-process client; the bridge sends the answer
 * back to the chat, which this program prints and exits 0. A real bot needs only a real token
 * (from @BotFather) and no {@code apiUrl}.
 */
public final class TelegramLocalExample {
  private static final long CHAT = 4242;

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("tether-telegram-example");
    BlockingQueue<String> sent = new LinkedBlockingQueue<>();
    HttpServer botApi = botApi(sent);
    try (TetherServer server = TetherServer.builder()
            .listen(new HostAddress.Unix(dir.resolve("tether.sock")))
            .workspaces(dir.resolve("workspaces"))
            .start();
        TetherClient agent = server.localClient();
        TetherClient bridgeClient = server.localClient()) {
      TelegramBridge bridge = TelegramBridge.builder()
          .client(bridgeClient)
          .instance("default")
          .token(BotToken.of("123456:local-example-token-not-a-real-one"))
          .apiUrl(URI.create("http://127.0.0.1:" + botApi.getAddress().getPort()))
          .allowedChats(Set.of(CHAT))
          .stateDir(dir.resolve("telegram"))
          .build();
      bridge.start();
      try {
        // The agent: the chat's message arrives as a user.message on session telegram/4242.
        FramePage asked = agent.poll("default", new PollRequest("telegram", null, 0, 1, 20_000,
            Set.of(FrameTypes.USER_MESSAGE), null)).get(30, TimeUnit.SECONDS);
        Frame question = asked.frames().get(0);
        String text = ((Payload.UserMessage) question.payloadView()).text();
        agent.send("default", Frames.assistantDone(question.session().orElseThrow(), question.msgId().orElseThrow(),
            "You said: " + text, List.of())).get(10, TimeUnit.SECONDS);
        String answer = sent.poll(30, TimeUnit.SECONDS);
        System.out.println("the bot answered chat " + CHAT + ": " + answer);
      } finally {
        bridge.close();
      }
    } finally {
      botApi.stop(0);
    }
  }

  /** A Bot-API-shaped server on loopback: one queued message, then empty long-polls; sendMessage texts go to {@code sent}. */
  private static HttpServer botApi(BlockingQueue<String> sent) throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AtomicBoolean delivered = new AtomicBoolean();
    http.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      String method = path.substring(path.lastIndexOf('/') + 1);
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      switch (method) {
        case "getUpdates" -> {
          if (delivered.compareAndSet(false, true)) {
            reply(exchange, "[{\"update_id\":1,\"message\":{\"message_id\":1,\"date\":1764000000,"
                + "\"chat\":{\"id\":" + CHAT + ",\"type\":\"private\"},\"from\":{\"id\":7,\"is_bot\":false,\"first_name\":\"Ada\"},"
                + "\"text\":\"hello from a local chat\"}}]");
          } else {
            sleepQuietly(500); // a long-poll with nothing new
            reply(exchange, "[]");
          }
        }
        case "sendMessage" -> {
          sent.add(field(body, "text"));
          reply(exchange, "{\"message_id\":2,\"date\":1764000001,\"chat\":{\"id\":" + CHAT + ",\"type\":\"private\"}}");
        }
        default -> reply(exchange, "true"); // sendChatAction and the like
      }
    });
    http.start();
    return http;
  }

  /** A field of a JSON or form body, good enough for this stand-in. */
  private static String field(String body, String name) {
    int at = body.indexOf("\"" + name + "\"");
    if (at >= 0) {
      int start = body.indexOf('"', body.indexOf(':', at) + 1) + 1;
      return body.substring(start, body.indexOf('"', start));
    }
    for (String pair : body.split("&")) {
      if (pair.startsWith(name + "=")) {
        return java.net.URLDecoder.decode(pair.substring(name.length() + 1), StandardCharsets.UTF_8);
      }
    }
    return body;
  }

  private static void reply(HttpExchange exchange, String result) throws IOException {
    byte[] bytes = ("{\"ok\":true,\"result\":" + result + "}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
