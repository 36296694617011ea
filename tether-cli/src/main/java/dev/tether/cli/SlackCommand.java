package dev.tether.cli;

import dev.tether.chat.ChatSecret;
import dev.tether.client.HostAddress;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.micrometer.TetherMeters;
import dev.tether.slack.SlackBridge;
import dev.tether.store.Readiness;
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
 * {@code tether slack}: a Slack app in front of a running {@code tether serve} instance. The bridge
 * is {@link SlackBridge} (module tether-slack); this command reads the options and the secret
 * files, reaches the host with {@link HttpTetherClient} and runs until SIGINT/SIGTERM.
 */
@Command(name = "slack", mixinStandardHelpOptions = true,
    description = {"Bridge a Slack app to a tether instance.",
        "Messages and files from the allowed channels and DMs go to the agent; a thread is a session and its answers"
        + " (images first) come back into the thread.",
        "Events come over Socket Mode (--app-token-file) or the Events API (--events-listen with --signing-secret-file).",
        "Every secret comes from a file readable only by you (chmod 600); none appears in logs."})
final class SlackCommand implements Callable<Integer> {
  @Option(names = "--bot-token-file", paramLabel = "FILE", required = true,
      description = "The bot token (xoxb-...), alone in a file with mode 0600.")
  Path botTokenFile;

  @Option(names = "--app-token-file", paramLabel = "FILE",
      description = "The app-level token (xapp-..., scope connections:write) for Socket Mode, in a 0600 file.")
  Path appTokenFile;

  @Option(names = "--events-listen", paramLabel = "HOST:PORT",
      description = "Receive the Events API over HTTP at http://HOST:PORT/slack/events instead of Socket Mode (put TLS in front).")
  String eventsListen;

  @Option(names = "--signing-secret-file", paramLabel = "FILE",
      description = "The app's signing secret, in a 0600 file; required with --events-listen.")
  Path signingSecretFile;

  @Option(names = "--api-url", paramLabel = "URL", defaultValue = "https://slack.com/api/",
      description = "The Web API. Default: ${DEFAULT-VALUE}.")
  URI apiUrl;

  @Mixin
  ClientOptions.Bridge hostOptions = new ClientOptions.Bridge();

  @Mixin
  ChatBridgeOptions bridgeOptions = new ChatBridgeOptions();

  @Option(names = "--allowed-channels", paramLabel = "ID", required = true, split = ",",
      description = "Conversation ids (C..., G..., D...) whose messages are forwarded. Others are ignored; their id is logged once.")
  List<String> allowedChannels;

  @Option(names = "--live-edits", description = "Show answers while they stream by editing a draft message (chat.update).")
  boolean liveEdits;

  @Option(names = "--media-dms", paramLabel = "lazy|eager", defaultValue = "eager",
      description = "Files in direct messages. Default: ${DEFAULT-VALUE}.")
  String mediaDms;

  @Option(names = "--media-channels", paramLabel = "lazy|eager", defaultValue = "lazy",
      description = "Files in channels: lazy (a placeholder and an sl_ ref, fetched with fetch_media) or eager. Default: ${DEFAULT-VALUE}.")
  String mediaChannels;

  @Mixin
  MetricsOptions ops = new MetricsOptions();

  @Mixin
  LogOptions logs = new LogOptions();

  @Override
  public Integer call() throws Exception {
    logs.install("slack");
    boolean lazyDms;
    boolean lazyChannels;
    Duration ttl;
    InetSocketAddress events = null;
    try {
      lazyDms = ChatBridgeOptions.lazy("--media-dms", mediaDms);
      lazyChannels = ChatBridgeOptions.lazy("--media-channels", mediaChannels);
      ttl = bridgeOptions.mediaTtl();
      if ((appTokenFile == null) == (eventsListen == null)) {
        throw new UsageException("give exactly one of --app-token-file (Socket Mode) and --events-listen (Events API)");
      }
      if (eventsListen != null) {
        if (signingSecretFile == null) {
          throw new UsageException("--events-listen needs --signing-secret-file");
        }
        HostAddress.Tcp tcp = ServeCommand.parseTcp("--events-listen", eventsListen);
        events = new InetSocketAddress(tcp.host(), tcp.port());
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    ChatSecret botToken;
    ChatSecret appToken = null;
    ChatSecret signingSecret = null;
    try {
      botToken = ChatSecret.fromFile("Slack bot token", botTokenFile);
      if (appTokenFile != null) {
        appToken = ChatSecret.fromFile("Slack app token", appTokenFile);
      }
      if (signingSecretFile != null) {
        signingSecret = ChatSecret.fromFile("Slack signing secret", signingSecretFile);
      }
    } catch (IOException e) {
      System.err.println("tether slack: " + e.getMessage());
      return 2;
    }
    HostAddress address = hostOptions.address();
    String instance = bridgeOptions.instance;
    Path state = bridgeOptions.stateDir("slack");
    HttpTetherClient client = hostOptions.connect(address, false);
    SlackBridge bridge;
    try {
      SlackBridge.Builder builder = SlackBridge.builder()
          .client(client)
          .attachments(client)
          .instance(instance)
          .botToken(botToken)
          .apiUrl(apiUrl)
          .allowedChannels(new LinkedHashSet<>(allowedChannels))
          .liveEdits(liveEdits)
          .stateDir(state)
          .lazyDirectMessages(lazyDms)
          .lazyChannels(lazyChannels)
          .mediaTtl(ttl);
      if (appToken != null) {
        builder.appToken(appToken);
      } else {
        builder.eventsApi(events, signingSecret);
      }
      TetherMeters meters = ops.meters(Set.of(instance));
      if (meters != null) {
        builder.listener(meters.chatListener("slack"));
      }
      bridge = builder.build();
      bridge.start();
    } catch (IOException | IllegalArgumentException | IllegalStateException e) {
      client.close();
      System.err.println("tether slack: " + ChatBridgeRun.redact(e.getMessage(), botToken, appToken, signingSecret));
      return 1;
    }
    MetricsEndpoint metricsEndpoint = !ops.enabled() ? null : ops.start("tether slack", false, null,
        () -> bridge.ready() ? new Readiness(true, "receiving events") : new Readiness(false, "no Slack event source yet"));
    return ChatBridgeRun.untilStopped("slack", bridge, client, metricsEndpoint,
        "bridging to instance " + instance + " on " + address + " for channels " + allowedChannels
            + " over " + (appToken != null ? "Socket Mode" : "the Events API at http://" + bridge.eventsAddress().getHostString() + ":"
            + bridge.eventsAddress().getPort() + "/slack/events") + " (state in " + state + ")",
        "media: DMs " + (lazyDms ? "lazy" : "eager") + ", channels " + (lazyChannels ? "lazy" : "eager")
            + "; refs fetchable for " + bridgeOptions.mediaTtl);
  }

}
