package dev.tether.micrometer;

import dev.tether.coven.CovenListener;
import dev.tether.media.MediaRegistry;
import dev.tether.server.TetherServer;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds tether to a Micrometer {@link MeterRegistry} the embedder passes. Every meter is named
 * {@code tether.*}; tags are {@code instance} (bounded by {@link InstanceTags}: opt-in, default
 * {@link InstanceTags#none()}), {@code type}, {@code code}, {@code store}, plus {@code route},
 * {@code method}, {@code status} on HTTP requests. Each listener is given to the builder of what it
 * observes, so nothing is recorded (or timed) where no listener is bound:
 *
 * <pre>{@code
 * TetherMeters meters = TetherMeters.of(registry).instanceTags(InstanceTags.only(Set.of("vm1")));
 * MemoryTetherStore store = MemoryTetherStore.builder().listener(meters.storeListener("memory")).build();
 * ServerMeters http = meters.serverListener();
 * TetherServer server = TetherServer.builder().store(store).listener(http).start();
 * http.bind(server);                       // the gauges: waits, streams, budgets
 * TelegramBridge.builder().listener(meters.telegramListener())...;
 * CovenAgent.builder().listener(meters.covenListener(logListener))...;
 * meters.bindMedia(mediaRegistry, "telegram");
 * }</pre>
 *
 * Not thread-safe while configuring; the listeners it returns are thread-safe.
 */
public final class TetherMeters {
  private final MeterRegistry registry;
  private InstanceTags instances = InstanceTags.none();
  private final Map<String, StoreMeters> stores = new ConcurrentHashMap<>();

  private TetherMeters(MeterRegistry registry) {
    this.registry = registry;
  }

  public static TetherMeters of(MeterRegistry registry) {
    return new TetherMeters(Objects.requireNonNull(registry, "registry"));
  }

  /** Which instances get their own {@code instance} tag value; default {@link InstanceTags#none()}. */
  public TetherMeters instanceTags(InstanceTags tags) {
    this.instances = Objects.requireNonNull(tags, "tags");
    return this;
  }

  /**
   * For a store builder's {@code listener(...)}: tagged {@code store} = {@code storeName}
   * ({@code memory}, {@code sqlite}, {@code jetstream}); see {@link StoreMeters}. The same name
   * returns the same listener (its counters read every store it is given to), with the instance
   * tags set when it was first asked for.
   */
  public StoreMeters storeListener(String storeName) {
    Objects.requireNonNull(storeName, "storeName");
    return stores.computeIfAbsent(storeName, n -> new StoreMeters(registry, instances, n));
  }

  /** For {@code TetherServer.Builder.listener}; call {@link ServerMeters#bind} once the server started. */
  public ServerMeters serverListener() {
    return new ServerMeters(registry, instances);
  }

  /** For {@code TelegramBridge.Builder.listener}; also the bridge's readiness. */
  public TelegramMeters telegramListener() {
    return new TelegramMeters(registry);
  }

  /** For the {@code listener} of a chat bridge on the chat core ({@code SlackBridge}, {@code WhatsAppBridge}): meters named {@code tether.<channel>.*}. */
  public ChatMeters chatListener(String channel) {
    return new ChatMeters(registry, channel);
  }

  /** For {@code CovenAgent.Builder.listener}, passing every event on to {@code next} as well. */
  public CovenMeters covenListener(CovenListener next) {
    return new CovenMeters(registry, next);
  }

  /** Binds the cache statistics of {@code media} (see {@link MediaMeters}), tagged {@code cache}. */
  public TetherMeters bindMedia(MediaRegistry media, String cache) {
    MediaMeters.bind(registry, Objects.requireNonNull(media, "media"), Objects.requireNonNull(cache, "cache"));
    return this;
  }

  /** Convenience: {@link #serverListener()} bound to an already started server's gauges only. */
  public TetherMeters bindServerGauges(TetherServer server) {
    new ServerMeters(registry, instances).bind(Objects.requireNonNull(server, "server"));
    return this;
  }
}
