package dev.tether.slack.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.chat.AnswerDelivery;
import dev.tether.chat.ChatLog;
import dev.tether.chat.ChatMediaStore;
import dev.tether.chat.ChatRetrier;
import dev.tether.chat.ChatSecret;
import dev.tether.chat.ChatStopper;
import dev.tether.chat.HostForwarder;
import dev.tether.chat.LiveDrafts;
import dev.tether.chat.MediaFetchAnswers;
import dev.tether.chat.SeenIds;
import dev.tether.chat.StateDirectory;
import dev.tether.chat.StateFile;
import dev.tether.chat.TypingIndicator;
import dev.tether.slack.SlackChat;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A started Slack bridge: the state directory lock, the receiver (Socket Mode thread or Events API
 * endpoint), the ingress thread that forwards what the receiver queued, and the core's egress
 * ({@link AnswerDelivery}). Deliveries wait in a queue of {@value #QUEUE} between receiver and
 * ingress; a full queue refuses the delivery (over HTTP with 503, so Slack retries it). Thread-safe
 * to close once.
 */
public final class SlackRuntime implements AutoCloseable {
  static final int QUEUE = 1000;
  private static final long JOIN_MS = 15_000;

  private final ChatStopper stopper;
  private final StateDirectory state;
  private final ChatMediaStore media;
  private final ScheduledExecutorService scheduler;
  private final Thread[] threads;
  private final EventsEndpoint endpoint;
  private final SocketMode socketMode;
  private final AtomicLong received;

  private SlackRuntime(ChatStopper stopper, StateDirectory state, ChatMediaStore media, ScheduledExecutorService scheduler,
      EventsEndpoint endpoint, SocketMode socketMode, AtomicLong received, Thread... threads) {
    this.stopper = stopper;
    this.state = state;
    this.media = media;
    this.scheduler = scheduler;
    this.endpoint = endpoint;
    this.socketMode = socketMode;
    this.received = received;
    this.threads = threads;
  }

  /**
   * Starts the bridge.
   *
   * @param events where the Events API endpoint listens, or null for Socket Mode
   * @param signingSecret the signing secret (Events API), or null
   */
  public static SlackRuntime start(SlackConfig config, SlackApi api, HttpClient http, InetSocketAddress events,
      ChatSecret signingSecret) throws IOException {
    StateDirectory claimed = StateDirectory.claim(config.stateDir(), "Slack bridge");
    ChatLog log = new ChatLog("dev.tether.slack", api::redact);
    ChatStopper stopper = new ChatStopper();
    ChatRetrier retrier = new ChatRetrier(config.retryInitial(), config.retryMax(), log, stopper, config.listener());
    ChatMediaStore media = null;
    ScheduledExecutorService scheduler = null;
    EventsEndpoint endpoint = null;
    try {
      StateFile egressState = StateFile.open(claimed.resolve("egress.json"));
      AnswerDelivery.initCursor(config.host(), SlackChat.CHANNEL, egressState);
      media = ChatMediaStore.open(SlackChat.CHANNEL, config.stateDir(), config.maxRefs(), config.clock(), config.inlineImageMaxBytes(),
          config.maxDownloadBytes(), config.host().limits(), new SlackDownloader(api, config.maxDownloadBytes()), log);
      scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tether-slack-typing");
        t.setDaemon(true);
        return t;
      });
      SlackSender sender = new SlackSender(api);
      SlackSessions sessions = new SlackSessions(config);
      TypingIndicator<SlackChat> typing = new TypingIndicator<>(sender, log, scheduler, Duration.ofSeconds(5));
      LiveDrafts<SlackChat> drafts = config.liveEdits() ? new LiveDrafts<>(sender, log, config.editInterval()) : null;
      MediaFetchAnswers<SlackChat> fetches = new MediaFetchAnswers<>(config.host(), sessions, media.registry(), media.fetcher(), log);
      AnswerDelivery<SlackChat> out = new AnswerDelivery<>(config.host(), sessions, sender, retrier, log, egressState, typing, drafts,
          fetches::handle);
      SeenIds seen = SeenIds.open(claimed.resolve("seen-ids"), SlackIngress.MAX_REMEMBERED);
      SlackIngress in = new SlackIngress(config, api, media, new HostForwarder(config.host(), retrier, log), seen, log);
      BlockingQueue<JsonNode> queue = new ArrayBlockingQueue<>(QUEUE);
      AtomicLong received = new AtomicLong();
      Consumer<JsonNode> sink = node -> {
        received.incrementAndGet();
        if (!queue.offer(node)) {
          log.warn("dropped a Slack delivery: " + QUEUE + " are already waiting for the host");
        }
      };
      SocketMode socket = null;
      Thread receiver = null;
      if (events != null) {
        endpoint = EventsEndpoint.start(events, new SlackSignature(signingSecret, config.clock()), sink, log);
      } else {
        socket = new SocketMode(api, http, retrier, log, sink);
        receiver = new Thread(socket::run, "tether-slack-socket");
      }
      Thread ingress = new Thread(() -> ingressLoop(queue, in, stopper, log), "tether-slack-ingress");
      Thread egress = new Thread(out::run, "tether-slack-egress");
      egress.start();
      ingress.start();
      if (receiver != null) {
        receiver.start();
      }
      log.info("slack bridge: instance " + config.host().instance() + ", channels " + config.allowedChannels() + ", "
          + (endpoint != null ? "Events API on " + endpoint.address() : "Socket Mode") + ", egress after seq "
          + egressState.get(AnswerDelivery.CURSOR));
      return new SlackRuntime(stopper, claimed, media, scheduler, endpoint, socket, received,
          receiver == null ? new Thread[] {ingress, egress} : new Thread[] {ingress, egress, receiver});
    } catch (IOException | RuntimeException e) {
      if (endpoint != null) {
        endpoint.close();
      }
      if (media != null) {
        media.close();
      }
      if (scheduler != null) {
        scheduler.shutdownNow();
      }
      claimed.close();
      throw e;
    }
  }

  private static void ingressLoop(BlockingQueue<JsonNode> queue, SlackIngress in, ChatStopper stopper, ChatLog log) {
    while (!stopper.stopped()) {
      JsonNode node;
      try {
        node = queue.poll(500, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (node == null) {
        continue;
      }
      try {
        SlackEvent.parse(node).ifPresent(e -> {
          try {
            in.handle(e);
          } catch (IOException failed) {
            throw new UncheckedIOException(failed);
          }
        });
      } catch (UncheckedIOException e) {
        if (e.getCause() instanceof InterruptedIOException) {
          return;
        }
        log.warn("a Slack message was not forwarded: " + log.describe(e.getCause()));
      } catch (RuntimeException e) {
        log.warn("a Slack delivery was skipped: " + log.describe(e));
      }
    }
  }

  /** Where the Events API endpoint listens, or null in Socket Mode. */
  public InetSocketAddress eventsAddress() {
    return endpoint == null ? null : endpoint.address();
  }

  /** Whether events can arrive: the endpoint is up, or the Socket Mode connection is open. */
  public boolean ready() {
    return !stopper.stopped() && (endpoint != null || socketMode != null && socketMode.connected());
  }

  /** Deliveries received so far. */
  public long received() {
    return received.get();
  }

  @Override
  public void close() {
    stopper.stop();
    if (endpoint != null) {
      endpoint.close();
    }
    scheduler.shutdownNow();
    for (Thread t : threads) {
      t.interrupt();
    }
    try {
      for (Thread t : threads) {
        t.join(JOIN_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    media.close();
    state.close();
  }
}
