package dev.tether.cli;

import dev.tether.chat.ChatListener;
import dev.tether.chat.ChatSecret;
import dev.tether.client.HostAddress;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.micrometer.TetherMeters;
import dev.tether.store.Readiness;
import dev.tether.whatsapp.WhatsAppBridge;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tether whatsapp}: a WhatsApp Business Cloud API number in front of a running
 * {@code tether serve} instance. The bridge is {@link WhatsAppBridge} (module tether-whatsapp);
 * this command reads the options and the secret files, reaches the host with
 * {@link HttpTetherClient} and runs until SIGINT/SIGTERM.
 */
@Command(name = "whatsapp", mixinStandardHelpOptions = true,
    description = {"Bridge a WhatsApp Business Cloud API number to a tether instance.",
        "Messages and media from the allowed numbers go to the agent; its answers (images first) go back to the number.",
        "WhatsApp calls the webhook at http://HOST:PORT/whatsapp/webhook (--listen; put TLS in front of it).",
        "Every secret comes from a file readable only by you (chmod 600); none appears in logs."})
final class WhatsAppCommand implements Callable<Integer> {
  @Option(names = "--access-token-file", paramLabel = "FILE", required = true,
      description = "The access token (a system user's token with whatsapp_business_messaging), in a 0600 file.")
  Path accessTokenFile;

  @Option(names = "--app-secret-file", paramLabel = "FILE", required = true,
      description = "The Meta app's secret, which signs every webhook delivery, in a 0600 file.")
  Path appSecretFile;

  @Option(names = "--verify-token-file", paramLabel = "FILE", required = true,
      description = "The verify token typed into the app's webhook settings, in a 0600 file.")
  Path verifyTokenFile;

  @Option(names = "--phone-number-id", paramLabel = "ID", required = true,
      description = "The business phone number's id (WhatsApp > API Setup), not the number itself.")
  String phoneNumberId;

  @Option(names = "--listen", paramLabel = "HOST:PORT", required = true,
      description = "Where the webhook listens, for example 127.0.0.1:8443 behind a TLS proxy.")
  String listen;

  @Option(names = "--graph-url", paramLabel = "URL", defaultValue = "https://graph.facebook.com/v21.0/",
      description = "The Graph API with its version. Default: ${DEFAULT-VALUE}.")
  URI graphUrl;

  @Mixin
  ClientOptions.Bridge hostOptions = new ClientOptions.Bridge();

  @Mixin
  ChatBridgeOptions bridgeOptions = new ChatBridgeOptions();

  @Option(names = "--allowed-numbers", paramLabel = "WA_ID", required = true, split = ",",
      description = "Customers' numbers in international form, digits only (4915112345678). Others are ignored.")
  List<String> allowedNumbers;

  @Option(names = "--media", paramLabel = "lazy|eager", defaultValue = "lazy",
      description = "Media of every conversation (WhatsApp has one kind): lazy (a wa_ ref fetched with fetch_media) or eager."
          + " Default: ${DEFAULT-VALUE}.")
  String media;

  @Mixin
  MetricsOptions ops = new MetricsOptions();

  @Mixin
  LogOptions logs = new LogOptions();

  @Override
  public Integer call() throws Exception {
    logs.install("whatsapp");
    boolean lazy;
    Duration ttl;
    InetSocketAddress address;
    try {
      lazy = ChatBridgeOptions.lazy("--media", media);
      ttl = bridgeOptions.mediaTtl();
      HostAddress.Tcp tcp = ServeCommand.parseTcp("--listen", listen);
      address = new InetSocketAddress(tcp.host(), tcp.port());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    ChatSecret accessToken;
    ChatSecret appSecret;
    ChatSecret verifyToken;
    try {
      accessToken = ChatSecret.fromFile("WhatsApp access token", accessTokenFile);
      appSecret = ChatSecret.fromFile("WhatsApp app secret", appSecretFile);
      verifyToken = ChatSecret.fromFile("WhatsApp verify token", verifyTokenFile);
    } catch (IOException e) {
      System.err.println("tether whatsapp: " + e.getMessage());
      return 2;
    }
    HostAddress host = hostOptions.address();
    String instance = bridgeOptions.instance;
    Path state = bridgeOptions.stateDir("whatsapp");
    HttpTetherClient client = hostOptions.connect(host, false);
    WhatsAppBridge bridge;
    try {
      TetherMeters meters = ops.meters(Set.of(instance));
      bridge = WhatsAppBridge.builder()
          .client(client)
          .attachments(client)
          .instance(instance)
          .accessToken(accessToken)
          .appSecret(appSecret)
          .verifyToken(verifyToken)
          .phoneNumberId(phoneNumberId)
          .graphUrl(graphUrl)
          .allowedNumbers(new LinkedHashSet<>(allowedNumbers))
          .stateDir(state)
          .webhook(address)
          .lazyMedia(lazy)
          .mediaTtl(ttl)
          .listener(meters == null ? ChatListener.NONE : meters.chatListener("whatsapp"))
          .build();
      bridge.start();
    } catch (IOException | IllegalArgumentException | IllegalStateException e) {
      client.close();
      System.err.println("tether whatsapp: " + ChatBridgeRun.redact(e.getMessage(), accessToken, appSecret, verifyToken));
      return 1;
    }
    MetricsEndpoint metricsEndpoint = !ops.enabled() ? null : ops.start("tether whatsapp", false, null,
        () -> bridge.ready() ? new Readiness(true, "webhook listening") : new Readiness(false, "stopped"));
    return ChatBridgeRun.untilStopped("whatsapp", bridge, client, metricsEndpoint,
        "bridging phone number id " + phoneNumberId + " to instance " + instance + " on " + host
            + " for numbers " + allowedNumbers + "; webhook at http://" + bridge.webhookAddress().getHostString() + ":"
            + bridge.webhookAddress().getPort() + "/whatsapp/webhook (state in " + state + ")",
        "media " + (lazy ? "lazy" : "eager") + "; refs fetchable for " + bridgeOptions.mediaTtl);
  }
}
