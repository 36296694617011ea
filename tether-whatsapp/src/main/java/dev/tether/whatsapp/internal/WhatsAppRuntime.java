package dev.tether.whatsapp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.chat.AnswerDelivery;
import dev.tether.chat.ChatLog;
import dev.tether.chat.ChatMediaStore;
import dev.tether.chat.ChatRetrier;
import dev.tether.chat.ChatSecret;
import dev.tether.chat.ChatStopper;
import dev.tether.chat.HostForwarder;
import dev.tether.chat.MediaFetchAnswers;
import dev.tether.chat.SeenIds;
import dev.tether.chat.StateDirectory;
import dev.tether.chat.StateFile;
import dev.tether.chat.TypingIndicator;
import dev.tether.whatsapp.WhatsAppChat;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A started WhatsApp bridge: the state directory lock, the webhook endpoint, the ingress thread
 * that forwards what the webhook queued, and the core's egress ({@link AnswerDelivery}). Deliveries
 * wait in a queue of {@value #QUEUE}. Thread-safe to close once.
 */
public final class WhatsAppRuntime implements AutoCloseable {
  static final int QUEUE = 1000;
  private static final long JOIN_MS = 15_000;

  private final ChatStopper stopper;
  private final StateDirectory state;
  private final ChatMediaStore media;
  private final ScheduledExecutorService scheduler;
  private final WebhookEndpoint endpoint;
  private final AtomicLong received;
  private final Thread[] threads;

  private WhatsAppRuntime(ChatStopper stopper, StateDirectory state, ChatMediaStore media, ScheduledExecutorService scheduler,
      WebhookEndpoint endpoint, AtomicLong received, Thread... threads) {
    this.stopper = stopper;
    this.state = state;
    this.media = media;
    this.scheduler = scheduler;
    this.endpoint = endpoint;
    this.received = received;
    this.threads = threads;
  }

  public static WhatsAppRuntime start(WhatsAppConfig config, GraphApi api, InetSocketAddress listen, ChatSecret verifyToken,
      ChatSecret appSecret) throws IOException {
    StateDirectory claimed = StateDirectory.claim(config.stateDir(), "WhatsApp bridge");
    ChatLog log = new ChatLog("dev.tether.whatsapp", text -> verifyToken.redact(appSecret.redact(api.redact(text))));
    ChatStopper stopper = new ChatStopper();
    ChatRetrier retrier = new ChatRetrier(config.retryInitial(), config.retryMax(), log, stopper, config.listener());
    ChatMediaStore media = null;
    ScheduledExecutorService scheduler = null;
    try {
      StateFile egressState = StateFile.open(claimed.resolve("egress.json"));
      AnswerDelivery.initCursor(config.host(), WhatsAppChat.CHANNEL, egressState);
      media = ChatMediaStore.open(WhatsAppChat.CHANNEL, config.stateDir(), config.maxRefs(), config.clock(),
          config.inlineImageMaxBytes(), config.maxDownloadBytes(), config.host().limits(),
          new WhatsAppDownloader(api, config.maxDownloadBytes()), log);
      scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tether-whatsapp-typing");
        t.setDaemon(true);
        return t;
      });
      WhatsAppSender sender = new WhatsAppSender(api);
      WhatsAppSessions sessions = new WhatsAppSessions(config);
      TypingIndicator<WhatsAppChat> typing = new TypingIndicator<>(sender, log, scheduler, Duration.ofSeconds(5));
      MediaFetchAnswers<WhatsAppChat> fetches = new MediaFetchAnswers<>(config.host(), sessions, media.registry(), media.fetcher(), log);
      AnswerDelivery<WhatsAppChat> out = new AnswerDelivery<>(config.host(), sessions, sender, retrier, log, egressState, typing, null,
          fetches::handle);
      SeenIds seen = SeenIds.open(claimed.resolve("seen-ids"), WhatsAppIngress.MAX_REMEMBERED);
      WhatsAppIngress in = new WhatsAppIngress(config, api, media, new HostForwarder(config.host(), retrier, log), seen, log);
      BlockingQueue<JsonNode> queue = new ArrayBlockingQueue<>(QUEUE);
      AtomicLong received = new AtomicLong();
      WebhookEndpoint endpoint = WebhookEndpoint.start(listen, verifyToken, new WebhookSignature(appSecret), node -> {
        received.incrementAndGet();
        if (!queue.offer(node)) {
          log.warn("dropped a WhatsApp delivery: " + QUEUE + " are already waiting for the host");
        }
      }, log);
      Thread ingress = new Thread(() -> ingressLoop(queue, in, config.phoneNumberId(), stopper, log), "tether-whatsapp-ingress");
      Thread egress = new Thread(out::run, "tether-whatsapp-egress");
      egress.start();
      ingress.start();
      log.info("whatsapp bridge: instance " + config.host().instance() + ", phone number id " + config.phoneNumberId() + ", numbers "
          + config.allowedNumbers() + ", webhook on " + endpoint.address() + ", egress after seq " + egressState.get(AnswerDelivery.CURSOR));
      return new WhatsAppRuntime(stopper, claimed, media, scheduler, endpoint, received, ingress, egress);
    } catch (IOException | RuntimeException e) {
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

  private static void ingressLoop(BlockingQueue<JsonNode> queue, WhatsAppIngress in, String phoneNumberId, ChatStopper stopper,
      ChatLog log) {
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
      for (WhatsAppMessage m : WhatsAppMessage.parse(node, phoneNumberId)) {
        try {
          in.handle(m);
        } catch (InterruptedIOException e) {
          return;
        } catch (IOException | RuntimeException e) {
          log.warn("a WhatsApp message was not forwarded: " + log.describe(e));
        }
      }
    }
  }

  public InetSocketAddress address() {
    return endpoint.address();
  }

  public boolean ready() {
    return !stopper.stopped();
  }

  public long received() {
    return received.get();
  }

  @Override
  public void close() {
    stopper.stop();
    endpoint.close();
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
