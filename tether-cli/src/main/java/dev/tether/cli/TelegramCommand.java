package dev.tether.cli;

import dev.tether.client.HostAddress;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.micrometer.TelegramMeters;
import dev.tether.micrometer.TetherMeters;
import dev.tether.telegram.BotToken;
import dev.tether.telegram.MediaMode;
import dev.tether.telegram.TelegramBridge;
import dev.tether.telegram.TelegramListener;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code tether telegram}: a Telegram bot in front of a running {@code tether serve} instance,
 * photos both ways. The bridge itself is {@link TelegramBridge} (module tether-telegram); this
 * command reads the options, reaches the host with {@link HttpTetherClient} and runs until
 * SIGINT/SIGTERM.
 */
@Command(name = "telegram", mixinStandardHelpOptions = true,
    description = {"Bridge a Telegram bot to a tether instance.",
        "Messages and photos from the allowed chats go to the agent; its answers (images first) come back to the"
        + " same chat or forum topic.",
        "The bot token comes from a file readable only by you (chmod 600); it never appears in logs."})
final class TelegramCommand implements Callable<Integer> {
  @Option(names = "--token-file", paramLabel = "FILE", required = true,
      description = "The bot token from @BotFather, alone in a file with mode 0600.")
  Path tokenFile;

  @Option(names = "--api-url", paramLabel = "URL", defaultValue = "https://api.telegram.org",
      description = "The Bot API server, for example a self-hosted telegram-bot-api. Default: ${DEFAULT-VALUE}.")
  URI apiUrl;

  /** {@code --host} and {@code --host-token-file}. */
  @CommandLine.Mixin
  ClientOptions.Bridge hostOptions = new ClientOptions.Bridge();

  @CommandLine.Mixin
  ChatBridgeOptions bridgeOptions = new ChatBridgeOptions();

  @Option(names = "--allowed-chats", paramLabel = "ID", required = true, split = ",",
      description = "Chat ids whose messages are forwarded (groups are negative). Others are ignored; their id is logged once.")
  List<Long> allowedChats;

  @Option(names = "--refuse-others", description = "Tell a chat that is not allowed, once, that this bot is private.")
  boolean refuseOthers;

  @Option(names = "--live-edits", description = "Show answers while they stream by editing a draft message (at most once a second).")
  boolean liveEdits;

  @Option(names = "--media", paramLabel = "lazy|eager",
      description = "Media of every chat: lazy (a placeholder and a ref; the agent fetches what it needs with"
          + " fetch_media) or eager (photos downloaded at once). Sets both of the next two.")
  String media;

  @Option(names = "--media-private", paramLabel = "lazy|eager",
      description = "Media of private chats. Default: eager.")
  String mediaPrivate;

  @Option(names = "--media-groups", paramLabel = "lazy|eager",
      description = "Media of groups and supergroups. Default: lazy.")
  String mediaGroups;

  @Option(names = "--media-max-refs", paramLabel = "N", defaultValue = "10000",
      description = "The most lazy media refs kept (in the state directory, so a restart keeps them). Default: ${DEFAULT-VALUE}.")
  int mediaMaxRefs = 10_000;

  /** {@code --metrics}: updates, messages sent, 429 waits; /ready while the last getUpdates succeeded. */
  @CommandLine.Mixin
  MetricsOptions ops = new MetricsOptions();

  @CommandLine.Mixin
  LogOptions logs = new LogOptions();

  @Override
  public Integer call() throws Exception {
    logs.install("telegram");
    MediaMode privateChats;
    MediaMode groups;
    Duration ttl;
    try {
      MediaMode all = media == null ? null : MediaMode.parse(media);
      privateChats = mediaPrivate != null ? MediaMode.parse(mediaPrivate) : all != null ? all : MediaMode.EAGER;
      groups = mediaGroups != null ? MediaMode.parse(mediaGroups) : all != null ? all : MediaMode.LAZY;
      ttl = bridgeOptions.mediaTtl();
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    BotToken token;
    try {
      token = BotToken.fromFile(tokenFile);
    } catch (IOException e) {
      System.err.println("tether telegram: " + e.getMessage());
      return 2;
    }
    HostAddress address = hostOptions.address();
    String instance = bridgeOptions.instance;
    Path state = bridgeOptions.stateDir("telegram");
    HttpTetherClient client = hostOptions.connect(address, false);
    TelegramBridge bridge;
    TetherMeters meters = ops.meters(Set.of(instance));
    TelegramMeters telegramMeters = meters == null ? null : meters.telegramListener();
    try {
      bridge = TelegramBridge.builder()
          .listener(telegramMeters == null ? TelegramListener.NONE : telegramMeters)
          .client(client)
          .attachments(client) // documents that are not images become session attachments
          .instance(instance)
          .token(token)
          .apiUrl(apiUrl)
          .allowedChats(new LinkedHashSet<>(allowedChats))
          .refuseOtherChats(refuseOthers)
          .liveEdits(liveEdits)
          .stateDir(state)
          .mediaPrivate(privateChats)
          .mediaGroups(groups)
          .mediaTtl(ttl)
          .maxMediaRefs(mediaMaxRefs)
          .build();
      bridge.start();
    } catch (IOException | IllegalArgumentException e) {
      client.close();
      System.err.println("tether telegram: " + token.redact(e.getMessage()));
      return 1;
    }
    MetricsEndpoint metricsEndpoint = telegramMeters == null ? null
        : ops.start("tether telegram", false, null, telegramMeters::readiness);
    return ChatBridgeRun.untilStopped("telegram", bridge, client, metricsEndpoint,
        "bridging " + token + " to instance " + instance + " on " + address + " for chats " + allowedChats + " (state in " + state + ")",
        "media: private chats " + privateChats.name().toLowerCase(Locale.ROOT) + ", groups " + groups.name().toLowerCase(Locale.ROOT)
            + "; refs fetchable for " + bridgeOptions.mediaTtl + ", at most " + mediaMaxRefs);
  }

}
