package dev.tether.slack;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.chat.ChatSecret;
import dev.tether.chat.testing.EchoAgent;
import dev.tether.chat.testing.RecordingAttachments;
import dev.tether.slack.internal.SlackSignature;
import dev.tether.slack.testing.FakeSlack;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/** One test's world: the Slack stand-in, an in-process host over a memory store, the echo agent, and a bridge. */
final class SlackHarness implements AutoCloseable {
  static final String INSTANCE = "vm-slack";
  static final String CHANNEL = "C0CHANNEL1";
  static final String DM = "D0DIRECT01";
  static final String SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
  static final Duration WAIT = Duration.ofSeconds(30);

  final FakeSlack slack = new FakeSlack();
  final MemoryTetherStore store = MemoryTetherStore.create();
  final StoreTetherClient client = StoreTetherClient.of(store);
  final RecordingAttachments attachments = new RecordingAttachments();
  final Path stateDir;
  private final HttpClient http = HttpClient.newHttpClient();
  private EchoAgent agent;
  private SlackBridge bridge;

  SlackHarness(Path dir) throws IOException {
    this.stateDir = dir.resolve("state");
  }

  SlackHarness withAgent() {
    agent = new EchoAgent(store, INSTANCE, SlackChat.CHANNEL);
    return this;
  }

  SlackBridge.Builder builder() {
    return SlackBridge.builder()
        .client(client)
        .attachments(attachments)
        .instance(INSTANCE)
        .botToken(ChatSecret.of("Slack bot token", FakeSlack.BOT_TOKEN))
        .apiUrl(slack.apiUrl())
        .allowedChannels(Set.of(CHANNEL, DM))
        .stateDir(stateDir)
        .pollWait(Duration.ofSeconds(1))
        .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200));
  }

  /** A bridge on Socket Mode. */
  SlackBridge startSocketMode(UnaryOperator<SlackBridge.Builder> settings) throws IOException, InterruptedException {
    bridge = settings.apply(builder().appToken(ChatSecret.of("Slack app token", FakeSlack.APP_TOKEN))).build();
    bridge.start();
    slack.socketMode().awaitConnected(WAIT);
    return bridge;
  }

  /** A bridge on the Events API, listening on a free loopback port. */
  SlackBridge startEventsApi(UnaryOperator<SlackBridge.Builder> settings) throws IOException {
    bridge = settings.apply(builder().eventsApi(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        ChatSecret.of("Slack signing secret", SIGNING_SECRET))).build();
    bridge.start();
    return bridge;
  }

  void stopBridge() {
    if (bridge != null) {
      bridge.close();
      bridge = null;
    }
  }

  /** Posts a delivery to the Events API endpoint, signed with {@code secret} at {@code timestamp}. */
  HttpResponse<String> deliver(ObjectNode callback, String secret, long timestamp) throws IOException, InterruptedException {
    byte[] body = callback.toString().getBytes(StandardCharsets.UTF_8);
    String ts = Long.toString(timestamp);
    String signature = "v0=" + new SlackSignature(ChatSecret.of("s", secret), Clock.systemUTC()).sign(ts, body);
    InetSocketAddress at = bridge.eventsAddress();
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + "/slack/events"))
        .header("X-Slack-Request-Timestamp", ts).header("X-Slack-Signature", signature)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> deliver(ObjectNode callback) throws IOException, InterruptedException {
    return deliver(callback, SIGNING_SECRET, System.currentTimeMillis() / 1000);
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
    slack.close();
    store.close();
  }
}
