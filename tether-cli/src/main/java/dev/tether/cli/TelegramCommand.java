package dev.tether.cli;

import dev.tether.client.http.HttpTetherClient;
import dev.tether.client.HostAddress;
import dev.tether.telegram.BotToken;
import dev.tether.telegram.TelegramBridge;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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

  @Option(names = "--host", paramLabel = "ADDRESS",
      description = "The tether host: unix:/path, a socket path or http://127.0.0.1:PORT. Default: the default socket of 'tether serve'.")
  String host;

  @Option(names = "--host-token-file", paramLabel = "FILE",
      description = "Bearer token for a TCP host (default ~/.tether/token when --host is TCP).")
  Path hostTokenFile;

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

  /** {@code --metrics}: updates, messages sent, 429 waits; /ready while the last getUpdates succeeded. */
  @picocli.CommandLine.Mixin
  MetricsOptions ops = new MetricsOptions();

  @picocli.CommandLine.Mixin
  LogOptions logs = new LogOptions();

  @Override
  public Integer call() throws Exception {
    logs.install("telegram");
    BotToken token;
    try {
      token = BotToken.fromFile(tokenFile);
    } catch (IOException e) {
      System.err.println("tether telegram: " + e.getMessage());
      return 2;
    }
    HostAddress address = host == null ? HostAddress.defaultSocket() : HostAddress.parse(host);
    Path state = stateDir != null ? stateDir : Connections.home().resolve(".tether").resolve("telegram").resolve(instance);
    HttpTetherClient client = Connections.connect(address, hostTokenFile, false);
    TelegramBridge bridge;
    dev.tether.micrometer.TetherMeters meters = ops.meters(java.util.Set.of(instance));
    dev.tether.micrometer.TelegramMeters telegramMeters = meters == null ? null : meters.telegramListener();
    try {
      bridge = TelegramBridge.builder()
          .listener(telegramMeters == null ? dev.tether.telegram.TelegramListener.NONE : telegramMeters)
          .client(client)
          .instance(instance)
          .token(token)
          .apiUrl(apiUrl)
          .allowedChats(new LinkedHashSet<>(allowedChats))
          .refuseOtherChats(refuseOthers)
          .liveEdits(liveEdits)
          .stateDir(state)
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
    stopped.await();
    return 0;
  }
}
