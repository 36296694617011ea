package dev.tether.whatsapp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.chat.ChatSecret;
import dev.tether.chat.testing.EchoAgent;
import dev.tether.chat.testing.RecordingAttachments;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import dev.tether.whatsapp.internal.WebhookSignature;
import dev.tether.whatsapp.testing.FakeGraph;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/** One test's world: the Graph API stand-in, an in-process host over a memory store, the echo agent, and a bridge. */
final class WhatsAppHarness implements AutoCloseable {
  static final String INSTANCE = "vm-whatsapp";
  static final String CUSTOMER = "4915112345678";
  static final String OTHER = "15551234567";
  static final String APP_SECRET = "app-secret-0123456789abcdef";
  static final String VERIFY_TOKEN = "verify-me-please-42";
  static final Duration WAIT = Duration.ofSeconds(30);

  final FakeGraph graph = new FakeGraph();
  final MemoryTetherStore store = MemoryTetherStore.create();
  final StoreTetherClient client = StoreTetherClient.of(store);
  final RecordingAttachments attachments = new RecordingAttachments();
  final Path stateDir;
  private final HttpClient http = HttpClient.newHttpClient();
  private EchoAgent agent;
  private WhatsAppBridge bridge;

  WhatsAppHarness(Path dir) throws IOException {
    this.stateDir = dir.resolve("state");
  }

  WhatsAppHarness withAgent() {
    agent = new EchoAgent(store, INSTANCE, WhatsAppChat.CHANNEL);
    return this;
  }

  WhatsAppBridge start(UnaryOperator<WhatsAppBridge.Builder> settings) throws IOException {
    bridge = settings.apply(WhatsAppBridge.builder()
        .client(client)
        .attachments(attachments)
        .instance(INSTANCE)
        .accessToken(ChatSecret.of("WhatsApp access token", FakeGraph.TOKEN))
        .appSecret(ChatSecret.of("WhatsApp app secret", APP_SECRET))
        .verifyToken(ChatSecret.of("WhatsApp verify token", VERIFY_TOKEN))
        .phoneNumberId(FakeGraph.PHONE_NUMBER_ID)
        .graphUrl(graph.graphUrl())
        .allowedNumbers(Set.of(CUSTOMER, OTHER))
        .stateDir(stateDir)
        .webhook(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .pollWait(Duration.ofSeconds(1))
        .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200))).build();
    bridge.start();
    return bridge;
  }

  void stopBridge() {
    if (bridge != null) {
      bridge.close();
      bridge = null;
    }
  }

  URI webhook(String query) {
    return URI.create("http://127.0.0.1:" + bridge.webhookAddress().getPort() + "/whatsapp/webhook" + (query == null ? "" : "?" + query));
  }

  HttpResponse<String> get(String query) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(webhook(query)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Posts a delivery signed with {@code secret}. */
  HttpResponse<String> deliver(ObjectNode delivery, String secret) throws IOException, InterruptedException {
    byte[] body = delivery.toString().getBytes(StandardCharsets.UTF_8);
    String signature = "sha256=" + new WebhookSignature(ChatSecret.of("s", secret)).sign(body);
    return http.send(HttpRequest.newBuilder(webhook(null)).header("X-Hub-Signature-256", signature)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> deliver(ObjectNode delivery) throws IOException, InterruptedException {
    return deliver(delivery, APP_SECRET);
  }

  List<Frame> forwarded() {
    return store.retained(INSTANCE).stream().filter(f -> f.type().equals(FrameTypes.USER_MESSAGE)).toList();
  }

  void awaitForwarded(int count) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    while (forwarded().size() < count && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    if (forwarded().size() < count) {
      throw new AssertionError("forwarded " + forwarded().size() + " of " + count);
    }
  }

  @Override
  public void close() {
    stopBridge();
    if (agent != null) {
      agent.close();
    }
    graph.close();
    store.close();
  }
}
