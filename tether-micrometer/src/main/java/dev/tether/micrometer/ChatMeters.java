package dev.tether.micrometer;

import dev.tether.chat.ChatListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ChatListener} that records a chat bridge (Slack, WhatsApp) into a {@link MeterRegistry},
 * every name prefixed {@code tether.<channel>.}: {@code updates} (events received), {@code forwarded}
 * (messages forwarded to the host), {@code calls.answered} (method: platform calls that succeeded),
 * {@code errors} (method: calls refused for good), {@code ratelimited} (method: 429 answers) and
 * {@code ratelimited.seconds} (the waits asked for). Methods are the platform's, a fixed set.
 * Thread-safe.
 */
public final class ChatMeters implements ChatListener {
  private final MeterRegistry registry;
  private final String prefix;
  private final Counter updates;
  private final Counter forwarded;
  private final Counter waitSeconds;
  private final ConcurrentHashMap<String, Counter> answered = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> errors = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> limited = new ConcurrentHashMap<>();

  ChatMeters(MeterRegistry registry, String channel) {
    this.registry = Objects.requireNonNull(registry, "registry");
    if (!channel.matches("[a-z][a-z0-9]{0,31}")) {
      throw new IllegalArgumentException("a channel name is lowercase letters and digits, e.g. slack, but was '" + channel + "'");
    }
    this.prefix = "tether." + channel + ".";
    this.updates = Counter.builder(prefix + "updates").description("Events received from the platform").register(registry);
    this.forwarded = Counter.builder(prefix + "forwarded").description("Chat messages forwarded to the host").register(registry);
    this.waitSeconds = Counter.builder(prefix + "ratelimited.seconds").description("Waits asked for by 429 answers")
        .baseUnit("seconds").register(registry);
  }

  @Override
  public void received(int count) {
    updates.increment(count);
  }

  @Override
  public void forwarded() {
    forwarded.increment();
  }

  @Override
  public void answered(String method) {
    counter(answered, "calls.answered", "Platform calls that succeeded", method).increment();
  }

  @Override
  public void failed(String method) {
    counter(errors, "errors", "Platform calls refused for good", method).increment();
  }

  @Override
  public void rateLimited(String method, int retryAfterSeconds) {
    counter(limited, "ratelimited", "429 answers", method).increment();
    waitSeconds.increment(retryAfterSeconds);
  }

  private Counter counter(ConcurrentHashMap<String, Counter> counters, String name, String description, String method) {
    return counters.computeIfAbsent(method, m -> Counter.builder(prefix + name).description(description).tag("method", m)
        .register(registry));
  }
}
