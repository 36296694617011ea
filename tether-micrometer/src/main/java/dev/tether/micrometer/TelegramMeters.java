package dev.tether.micrometer;

import dev.tether.store.Readiness;
import dev.tether.telegram.TelegramListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link TelegramListener} that records into a {@link MeterRegistry}: {@code tether.telegram.updates}
 * (updates received), {@code tether.telegram.messages.sent} (method), {@code tether.telegram.ratelimited}
 * (method: 429 answers) and {@code tether.telegram.ratelimited.seconds} (the waits Telegram asked for).
 * Methods are the Bot API's, a fixed set. It also keeps the bridge's {@link #readiness()}: ready once
 * {@code getUpdates} answered and while its last call succeeded. Thread-safe.
 */
public final class TelegramMeters implements TelegramListener {
  private final MeterRegistry registry;
  private final Counter updates;
  private final Counter waitSeconds;
  private final ConcurrentHashMap<String, Counter> sent = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> limited = new ConcurrentHashMap<>();
  private volatile String lastPollFailure = "getUpdates has not answered yet";

  TelegramMeters(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.updates = Counter.builder("tether.telegram.updates").description("Updates received from getUpdates").register(registry);
    this.waitSeconds = Counter.builder("tether.telegram.ratelimited.seconds").description("Waits asked for by 429 answers")
        .baseUnit("seconds").register(registry);
  }

  @Override
  public void updatesReceived(int count) {
    updates.increment(count);
  }

  @Override
  public void sent(String method) {
    sent.computeIfAbsent(method, m -> Counter.builder("tether.telegram.messages.sent").description("Messages and edits sent")
        .tag("method", m).register(registry)).increment();
  }

  @Override
  public void rateLimited(String method, int retryAfterSeconds) {
    limited.computeIfAbsent(method, m -> Counter.builder("tether.telegram.ratelimited").description("429 answers")
        .tag("method", m).register(registry)).increment();
    waitSeconds.increment(retryAfterSeconds);
  }

  @Override
  public void answered(String method, boolean ok) {
    if ("getUpdates".equals(method)) {
      lastPollFailure = ok ? null : "the last getUpdates failed (Telegram unreachable or the token refused)";
    }
  }

  /** Ready when the last {@code getUpdates} succeeded; else why not. */
  public Readiness readiness() {
    String failure = lastPollFailure;
    return failure == null ? Readiness.yes() : Readiness.notReady(failure);
  }
}
