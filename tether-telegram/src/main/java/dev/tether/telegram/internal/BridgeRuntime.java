package dev.tether.telegram.internal;

import dev.tether.api.files.PrivateDirectory;
import dev.tether.api.files.PrivateFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A started bridge: the state directory lock, the ingress and egress threads and the typing
 * scheduler. Created by {@link #start}, ended by {@link #close} (stops the loops, lets egress
 * finish the message in flight, interrupts what is left and waits for it up to a poll's wait plus
 * 10 seconds). Thread-safe to close once.
 */
public final class BridgeRuntime implements AutoCloseable {
  private final Stopper stopper;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final ScheduledExecutorService scheduler;
  private final Thread ingress;
  private final Thread egress;
  private final LazyMedia media;
  /** How long a stop waits for egress to finish the message it is sending before interrupting it. */
  private static final long EGRESS_GRACE_MS = 10_000;

  private final long joinMs;

  private BridgeRuntime(Stopper stopper, FileChannel lockChannel, FileLock lock, ScheduledExecutorService scheduler, Thread ingress,
      Thread egress, LazyMedia media, long joinMs) {
    this.media = media;
    this.stopper = stopper;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.scheduler = scheduler;
    this.ingress = ingress;
    this.egress = egress;
    this.joinMs = joinMs;
  }

  public static BridgeRuntime start(BridgeConfig config, MediaSettings media, BotApi api) throws IOException {
    Path dir = config.stateDir();
    // The state (offsets, cursors, media refs) is the bridge's alone: the directory 0700 (an
    // existing one of ours tightened, another user's refused), every file in it 0600 from creation.
    PrivateDirectory.claim(dir);
    Path lockFile = dir.resolve("bridge.lock");
    FileChannel channel = FileChannel.open(lockFile, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
        PrivateFiles.fileAttributes(lockFile));
    PrivateFiles.restrict(lockFile); // one an earlier version made 0644
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (java.nio.channels.OverlappingFileLockException e) {
      lock = null; // held by another bridge in this JVM
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      throw new IOException("another Telegram bridge is running with the state directory " + dir);
    }
    BridgeLog log = new BridgeLog(api.token());
    ScheduledExecutorService scheduler = null;
    LazyMedia lazy = null;
    try {
      StateFile ingressState = StateFile.open(dir.resolve("ingress.json"));
      StateFile egressState = StateFile.open(dir.resolve("egress.json"));
      Egress.initCursor(config, egressState);
      Stopper stopper = new Stopper();
      Retrier retrier = new Retrier(config.retryInitial(), config.retryMax(), log, stopper);
      scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tether-telegram-typing");
        t.setDaemon(true);
        return t;
      });
      Typing typing = new Typing(api, log, scheduler, config.typingInterval());
      lazy = LazyMedia.open(media, dir, config.limits(), api, retrier, log);
      Egress out = new Egress(config, api, retrier, log, egressState, typing, new MediaRequests(config, lazy, log));
      Ingress in = new Ingress(config, api, retrier, log, ingressState, lazy);
      Thread egress = new Thread(out::run, "tether-telegram-egress");
      Thread ingress = new Thread(in::run, "tether-telegram-ingress");
      egress.start();
      ingress.start();
      log.info("telegram bridge: instance " + config.instance() + ", chats " + config.allowedChats()
          + ", egress after seq " + egressState.get(Egress.CURSOR) + ", updates after " + ingressState.get(Ingress.STATE_KEY));
      return new BridgeRuntime(stopper, channel, lock, scheduler, ingress, egress, lazy, config.pollWait().toMillis() + 10_000);
    } catch (IOException | RuntimeException e) {
      if (lazy != null) {
        lazy.close();
      }
      if (scheduler != null) {
        scheduler.shutdownNow();
      }
      lock.release();
      channel.close();
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
    try {
      lock.release();
      lockChannel.close();
    } catch (IOException e) {
      // The lock goes with the channel; nothing else to release.
    }
  }
}
