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
import java.time.format.DateTimeParseException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  @Option(names = "--instance", paramLabel = "ID", defaultValue = "default", description = "The instance to bridge. Default: ${DEFAULT-VALUE}.")
  String instance;

  @Option(names = "--allowed-chats", paramLabel = "ID", required = true, split = ",",
      description = "Chat ids whose messages are forwarded (groups are negative). Others are ignored; their id is logged once.")
  List<Long> allowedChats;

  @Option(names = "--refuse-others", description = "Tell a chat that is not allowed, once, that this bot is private.")
  boolean refuseOthers;

  @Option(names = "--live-edits", description = "Show answers while they stream by editing a draft message (at most once a second).")
  boolean liveEdits;

  @Option(names = "--state-dir", paramLabel = "DIR",
      description = "Where the update offset and the answer cursor are kept, so a restart sends nothing twice."
          + " Default: ~/.tether/telegram/<instance>.")
  Path stateDir;

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

  @Option(names = "--media-ttl", paramLabel = "DURATION", defaultValue = "30m",
      description = "How long a lazy media ref stays fetchable: 90s, 30m, 2h, 1d. Default: ${DEFAULT-VALUE}.")
  String mediaTtl = "30m";

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
      ttl = duration(mediaTtl);
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
    Path state = stateDir != null ? stateDir : Connections.home().resolve(".tether").resolve("telegram").resolve(instance);
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
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (metricsEndpoint != null) {
        metricsEndpoint.close();
      }
      bridge.close();
      client.close();
      System.err.println("tether telegram: stopped");
      stopped.countDown();
    }, "tether-telegram-shutdown"));
    System.err.println("tether telegram: bridging " + token + " to instance " + instance + " on " + address
        + " for chats " + allowedChats + " (state in " + state + ")");
    System.err.println("tether telegram: media: private chats " + privateChats.name().toLowerCase(Locale.ROOT)
        + ", groups " + groups.name().toLowerCase(Locale.ROOT) + "; refs fetchable for " + mediaTtl
        + ", at most " + mediaMaxRefs);
    stopped.await();
    return 0;
  }

  /** {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d}, or an ISO-8601 duration ({@code PT30M}); positive. */
  static Duration duration(String text) {
    String t = text == null ? "" : text.strip();
    Duration d = parseDuration(text, t);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("--media-ttl must be positive but was '" + text + "'");
    }
    return d;
  }

  private static Duration parseDuration(String text, String t) {
    Matcher m = Pattern.compile("(\\d{1,9})([smhd])").matcher(t);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    }
    try {
      return Duration.parse(t);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("--media-ttl must read like 90s, 30m, 2h or 1d but was '" + text + "'");
    }
  }
}
