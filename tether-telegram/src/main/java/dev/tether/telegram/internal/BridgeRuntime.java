package dev.tether.telegram.internal;

import dev.tether.chat.AnswerDelivery;
import dev.tether.chat.LiveDrafts;
import dev.tether.chat.MediaFetchAnswers;
import dev.tether.chat.StateDirectory;
import dev.tether.chat.TypingIndicator;
import dev.tether.telegram.TelegramChat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A started bridge: the state directory lock, the ingress and egress threads and the typing
 * scheduler. Created by {@link #start}, ended by {@link #close} (stops the loops, lets egress
 * finish the message in flight, interrupts what is left and waits for it up to a poll's wait plus
 * 10 seconds). Egress is the core's {@link AnswerDelivery} over {@link TelegramSender}; ingress is
 * Telegram's own ({@link Ingress}). Thread-safe to close once.
 */
public final class BridgeRuntime implements AutoCloseable {
  private final Stopper stopper;
  private final StateDirectory state;
  private final ScheduledExecutorService scheduler;
  private final Thread ingress;
  private final Thread egress;
  private final LazyMedia media;
  /** How long a stop waits for egress to finish the message it is sending before interrupting it. */
  private static final long EGRESS_GRACE_MS = 10_000;

  private final long joinMs;

  private BridgeRuntime(Stopper stopper, StateDirectory state, ScheduledExecutorService scheduler, Thread ingress,
      Thread egress, LazyMedia media, long joinMs) {
    this.media = media;
    this.stopper = stopper;
    this.state = state;
    this.scheduler = scheduler;
    this.ingress = ingress;
    this.egress = egress;
    this.joinMs = joinMs;
  }

  public static BridgeRuntime start(BridgeConfig config, MediaSettings media, BotApi api) throws IOException {
    Path dir = config.stateDir();
    StateDirectory claimed = StateDirectory.claim(dir, "Telegram bridge");
    BridgeLog log = new BridgeLog(api.token());
    ScheduledExecutorService scheduler = null;
    LazyMedia lazy = null;
    try {
      StateFile ingressState = StateFile.open(dir.resolve("ingress.json"));
      StateFile egressState = StateFile.open(dir.resolve("egress.json"));
      AnswerDelivery.initCursor(config.host(), TelegramChat.CHANNEL, egressState.core());
      Stopper stopper = new Stopper();
      Retrier retrier = new Retrier(config.retryInitial(), config.retryMax(), log, stopper);
      scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tether-telegram-typing");
        t.setDaemon(true);
        return t;
      });
      TelegramSender sender = new TelegramSender(api);
      TelegramSessions sessions = new TelegramSessions(config);
      TypingIndicator<TelegramChat> typing = new TypingIndicator<>(sender, log.chat(), scheduler, config.typingInterval());
      LiveDrafts<TelegramChat> drafts = config.liveEdits() ? new LiveDrafts<>(sender, log.chat(), config.editInterval()) : null;
      lazy = LazyMedia.open(media, dir, config.limits(), api, retrier, log);
      MediaFetchAnswers<TelegramChat> fetches = new MediaFetchAnswers<>(config.host(), sessions, lazy.registry(), lazy.fetcher(),
          log.chat());
      AnswerDelivery<TelegramChat> out = new AnswerDelivery<>(config.host(), sessions, sender, retrier.core(), log.chat(),
          egressState.core(), typing, drafts, fetches::handle);
      Ingress in = new Ingress(config, api, retrier, log, ingressState, lazy);
      Thread egress = new Thread(out::run, "tether-telegram-egress");
      Thread ingress = new Thread(in::run, "tether-telegram-ingress");
      egress.start();
      ingress.start();
      log.info("telegram bridge: instance " + config.instance() + ", chats " + config.allowedChats()
          + ", egress after seq " + egressState.get(AnswerDelivery.CURSOR) + ", updates after " + ingressState.get(Ingress.STATE_KEY));
      return new BridgeRuntime(stopper, claimed, scheduler, ingress, egress, lazy, config.pollWait().toMillis() + 10_000);
    } catch (IOException | RuntimeException e) {
      if (lazy != null) {
        lazy.close();
      }
      if (scheduler != null) {
        scheduler.shutdownNow();
      }
      claimed.close();
      throw e;
    }
  }

  @Override
  public void close() {
    stopper.stop();
    // Ingress may be cut at once: an update is confirmed to Telegram only after the host took it,
    // so an interrupted one is simply delivered again. Egress first gets a grace period to finish
    // the Telegram message in flight and record it, so a graceful stop never sends it twice after
    // a restart (the stopper already ended its waits; it stops before the next message).
    ingress.interrupt();
    scheduler.shutdownNow();
    try {
      egress.join(Math.min(joinMs, EGRESS_GRACE_MS));
      egress.interrupt();
      ingress.join(joinMs);
      egress.join(joinMs);
      scheduler.awaitTermination(joinMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    media.close();
    state.close();
  }
}
