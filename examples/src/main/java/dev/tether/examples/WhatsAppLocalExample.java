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
import dev.tether.store.MemoryTetherStore;
import dev.tether.whatsapp.WhatsAppBridge;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
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
 * The WhatsApp bridge working without a Meta account: a local server that speaks the Graph API's
 * {@code /<phone-number-id>/messages} stands in for graph.facebook.com, and this program posts one
 * webhook delivery to the bridge, signed with the app secret the way Meta signs it. The bridge
 * forwards the message to an embedded tether server; an "agent" answers; the bridge sends the
 * answer as a WhatsApp text message, which this program prints and exits 0. A real number needs
 * its real access token, app secret and phone number id, and no {@code graphUrl}.
 */
public final class WhatsAppLocalExample {
  private static final String PHONE_NUMBER_ID = "106540352242922";
  private static final String CUSTOMER = "4915112345678";
  private static final String APP_SECRET = "local-example-app-secret";

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("tether-whatsapp-example");
    BlockingQueue<String> sent = new LinkedBlockingQueue<>();
    HttpServer graph = graphApi(sent);
    try (TetherServer server = TetherServer.builder()
            .listen(new HostAddress.Unix(dir.resolve("tether.sock")))
            .store(MemoryTetherStore.create())
            .workspaces(dir.resolve("workspaces"))
            .start();
        TetherClient agent = server.localClient();
        TetherClient bridgeClient = server.localClient();
        WhatsAppBridge bridge = WhatsAppBridge.builder()
            .client(bridgeClient)
            .instance("default")
            .accessToken(ChatSecret.of("WhatsApp access token", "EAAG-local-example-not-a-real-token"))
            .appSecret(ChatSecret.of("WhatsApp app secret", APP_SECRET))
            .verifyToken(ChatSecret.of("WhatsApp verify token", "local-verify-token"))
            .phoneNumberId(PHONE_NUMBER_ID)
            .graphUrl(URI.create("http://127.0.0.1:" + graph.getAddress().getPort() + "/v21.0/"))
            .allowedNumbers(Set.of(CUSTOMER))
            .webhook(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .stateDir(dir.resolve("whatsapp"))
            .build()) {
      bridge.start();
      String delivery = "{\"object\":\"whatsapp_business_account\",\"entry\":[{\"id\":\"WABA\",\"changes\":[{\"field\":\"messages\","
          + "\"value\":{\"messaging_product\":\"whatsapp\",\"metadata\":{\"phone_number_id\":\"" + PHONE_NUMBER_ID + "\"},"
          + "\"contacts\":[{\"wa_id\":\"" + CUSTOMER + "\",\"profile\":{\"name\":\"Ada\"}}],\"messages\":[{\"from\":\"" + CUSTOMER
          + "\",\"id\":\"wamid.1\",\"timestamp\":\"1764000000\",\"type\":\"text\",\"text\":{\"body\":\"hello from a local number\"}}]}}]}]}";
      int status = deliver(bridge.webhookAddress(), delivery);
      FramePage asked = agent.poll("default", new PollRequest("whatsapp", null, 0, 1, 20_000,
          Set.of(FrameTypes.USER_MESSAGE), null)).get(30, TimeUnit.SECONDS);
      Frame question = asked.frames().get(0);
      String text = ((Payload.UserMessage) question.payloadView()).text();
      agent.send("default", Frames.assistantDone(question.session().orElseThrow(), question.msgId().orElseThrow(),
          "You said: " + text, List.of())).get(10, TimeUnit.SECONDS);
      System.out.println("the delivery was answered " + status + "; the number answered: " + sent.poll(30, TimeUnit.SECONDS));
    } finally {
      graph.stop(0);
    }
  }

  /** Posts {@code delivery} to the webhook with Meta's {@code X-Hub-Signature-256}. */
  private static int deliver(InetSocketAddress webhook, String delivery) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(APP_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    String signature = "sha256=" + HexFormat.of().formatHex(mac.doFinal(delivery.getBytes(StandardCharsets.UTF_8)));
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + webhook.getPort() + "/whatsapp/webhook"))
        .header("X-Hub-Signature-256", signature).POST(HttpRequest.BodyPublishers.ofString(delivery)).build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** A Graph-API-shaped server on loopback: the bodies of text messages go to {@code sent}. */
  private static HttpServer graphApi(BlockingQueue<String> sent) throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    http.createContext("/v21.0/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      int at = body.indexOf("\"body\":\"");
      if (exchange.getRequestURI().getPath().endsWith("/messages") && at >= 0) {
        sent.add(body.substring(at + 8, body.indexOf('"', at + 8)));
      }
      byte[] answer = "{\"messaging_product\":\"whatsapp\",\"messages\":[{\"id\":\"wamid.out1\"}]}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    http.start();
    return http;
  }
}
