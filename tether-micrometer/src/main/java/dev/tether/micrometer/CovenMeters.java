package dev.tether.micrometer;

import dev.tether.api.Frame;
import dev.tether.coven.CovenListener;
import dev.tether.coven.CovenTermination;
import dev.tether.coven.CovenWelcome;
import dev.tether.store.Readiness;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link CovenListener} that records into a {@link MeterRegistry}: {@code tether.coven.requests}
 * (requests bridged), {@code tether.coven.terminal} (kind: {@code done}, {@code error},
 * {@code cancelled}), {@code tether.coven.reconnects} (streams that ended and will be reopened). It
 * keeps the agent's {@link #readiness()}: ready while registered with the gateway. To keep another
 * listener (a log), pass it as {@code next}: every event goes to it too. Thread-safe.
 */
public final class CovenMeters implements CovenListener {
  private final MeterRegistry registry;
  private final CovenListener next;
  private final Counter requests;
  private final Counter reconnects;
  private final ConcurrentHashMap<String, Counter> terminal = new ConcurrentHashMap<>();
  private volatile String notReady = "not registered with the gateway yet";

  CovenMeters(MeterRegistry registry, CovenListener next) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.next = Objects.requireNonNull(next, "next");
    this.requests = Counter.builder("tether.coven.requests").description("Gateway requests bridged").register(registry);
    this.reconnects = Counter.builder("tether.coven.reconnects").description("Streams ended and reopened").register(registry);
  }

  @Override
  public void onConnecting(String target, int attempt) {
    next.onConnecting(target, attempt);
  }

  @Override
  public void onRegistered(CovenWelcome welcome) {
    notReady = null;
    next.onRegistered(welcome);
  }

  @Override
  public void onDisconnected(String reason, Duration retryIn) {
    reconnects.increment();
    notReady = "disconnected from the gateway (" + reason + "); reconnecting";
    next.onDisconnected(reason, retryIn);
  }

  @Override
  public void onRequest(String requestId, String threadId, int attachments) {
    requests.increment();
    next.onRequest(requestId, threadId, attachments);
  }

  @Override
  public void onForwarded(String requestId, Frame frame) {
    next.onForwarded(requestId, frame);
  }

  @Override
  public void onRequestEnded(String requestId, String outcome) {
    String kind = outcome.startsWith("error") ? "error" : outcome.equals("done") || outcome.equals("cancelled") ? outcome : "other";
    terminal.computeIfAbsent(kind, k -> Counter.builder("tether.coven.terminal").description("Terminal events sent, by kind")
        .tag("kind", k).register(registry)).increment();
    next.onRequestEnded(requestId, outcome);
  }

  @Override
  public void onWarning(String message) {
    next.onWarning(message);
  }

  @Override
  public void onTerminated(CovenTermination termination) {
    notReady = "the agent stopped: " + termination.reason();
    next.onTerminated(termination);
  }

  /** Ready while registered with the gateway; else why not. */
  public Readiness readiness() {
    String why = notReady;
    return why == null ? Readiness.yes() : Readiness.notReady(why);
  }
}
