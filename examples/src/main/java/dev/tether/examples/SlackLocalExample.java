package dev.tether.examples;

import com.sun.net.httpserver.HttpServer;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Frames;
import dev.tether.api.Payload;
import dev.tether.chat.ChatSecret;
import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.server.TetherServer;
import dev.tether.slack.SlackBridge;
import dev.tether.store.MemoryTetherStore;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Slack bridge working without a Slack workspace: a local server that speaks the Web API method
 * the bridge answers with ({@code chat.postMessage}) stands in for slack.com, and this program posts
 * one message event to the bridge's Events API endpoint, signed the way Slack signs it. The bridge
 * forwards it to an embedded tether server; an "agent" answers through the server's in-process
 * client; the bridge posts the answer into the thread, which this program prints and exits 0. A
 * real app needs its real tokens and no {@code apiUrl} (and usually Socket Mode: {@code appToken}).
 */
public final class SlackLocalExample {
  private static final String CHANNEL = "C0EXAMPLE1";
  private static final String SIGNING_SECRET = "local-example-signing-secret";

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("tether-slack-example");
    BlockingQueue<String> posted = new LinkedBlockingQueue<>();
    HttpServer slack = webApi(posted);
    try (TetherServer server = TetherServer.builder()
            .listen(new HostAddress.Unix(dir.resolve("tether.sock")))
            .store(MemoryTetherStore.create())
            .workspaces(dir.resolve("workspaces"))
            .start();
        TetherClient agent = server.localClient();
        TetherClient bridgeClient = server.localClient();
        SlackBridge bridge = SlackBridge.builder()
            .client(bridgeClient)
            .instance("default")
            .botToken(ChatSecret.of("Slack bot token", "xoxb-local-example-not-a-real-token"))
            .apiUrl(URI.create("http://127.0.0.1:" + slack.getAddress().getPort() + "/api/"))
            .eventsApi(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), ChatSecret.of("Slack signing secret", SIGNING_SECRET))
            .allowedChannels(Set.of(CHANNEL))
            .stateDir(dir.resolve("slack"))
            .build()) {
      bridge.start();
      String event = "{\"type\":\"event_callback\",\"event_id\":\"Ev1\",\"event\":{\"type\":\"message\",\"channel\":\"" + CHANNEL
          + "\",\"user\":\"U1\",\"text\":\"hello from a local channel\",\"ts\":\"1764000000.000100\"}}";
      int status = deliver(bridge.eventsAddress(), event);
      // The agent: the message arrives as a user.message on session slack/C0EXAMPLE1:1764000000.000100.
      FramePage asked = agent.poll("default", new PollRequest("slack", null, 0, 1, 20_000,
          Set.of(FrameTypes.USER_MESSAGE), null)).get(30, TimeUnit.SECONDS);
      Frame question = asked.frames().get(0);
      String text = ((Payload.UserMessage) question.payloadView()).text();
      agent.send("default", Frames.assistantDone(question.session().orElseThrow(), question.msgId().orElseThrow(),
          "You said: " + text, List.of())).get(10, TimeUnit.SECONDS);
      System.out.println("the delivery was answered " + status + "; the app answered in the thread: " + posted.poll(30, TimeUnit.SECONDS));
    } finally {
      slack.stop(0);
    }
  }

  /** Posts {@code event} to the bridge's endpoint with Slack's v0 signature. */
  private static int deliver(InetSocketAddress endpoint, String event) throws Exception {
    String ts = Long.toString(System.currentTimeMillis() / 1000);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SIGNING_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    String signature = "v0=" + HexFormat.of().formatHex(mac.doFinal(("v0:" + ts + ":" + event).getBytes(StandardCharsets.UTF_8)));
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.getPort() + "/slack/events"))
        .header("X-Slack-Request-Timestamp", ts).header("X-Slack-Signature", signature)
        .POST(HttpRequest.BodyPublishers.ofString(event)).build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** A Web-API-shaped server on loopback: {@code chat.postMessage} texts go to {@code posted}. */
  private static HttpServer webApi(BlockingQueue<String> posted) throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    http.createContext("/api/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      if (exchange.getRequestURI().getPath().endsWith("/chat.postMessage")) {
        for (String pair : body.split("&")) {
          if (pair.startsWith("text=")) {
            posted.add(URLDecoder.decode(pair.substring(5), StandardCharsets.UTF_8));
          }
        }
      }
      byte[] answer = "{\"ok\":true,\"ts\":\"1764000001.000200\"}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    http.start();
    return http;
  }
}
