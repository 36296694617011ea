package dev.tether.micrometer;

import dev.tether.api.ErrorCode;
import dev.tether.server.ServerListener;
import dev.tether.server.ServerStats;
import dev.tether.server.TetherServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * A {@link ServerListener} that records into a {@link MeterRegistry}, and the gauges of a running
 * {@link TetherServer}. Meters:
 *
 * <ul>
 *   <li>{@code tether.http.requests} timer with a latency histogram (route, method, status): route
 *       is a template from a fixed set, never a raw path
 *   <li>{@code tether.frames.refused} (instance bounded by {@link InstanceTags}, code): frames POSTed
 *       and refused, by error code
 *   <li>gauges {@code tether.waits.active}, {@code tether.streams.active},
 *       {@code tether.ingress.bytes.used}, {@code tether.ingress.bytes.max},
 *       {@code tether.egress.bytes.used}, {@code tether.egress.bytes.max} (after {@link #bind})
 * </ul>
 *
 * Thread-safe. Get one from {@link TetherMeters#serverListener()}.
 */
public final class ServerMeters implements ServerListener {
  private final MeterRegistry registry;
  private final InstanceTags instances;
  private final ConcurrentHashMap<String, Timer> requests = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> refused = new ConcurrentHashMap<>();

  ServerMeters(MeterRegistry registry, InstanceTags instances) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.instances = Objects.requireNonNull(instances, "instances");
  }

  @Override
  public void requested(String route, String method, int status, long nanos) {
    // route and method come from fixed sets; status is an HTTP status: the key space is bounded.
    String key = route + ' ' + method + ' ' + status;
    Timer t = requests.get(key);
    if (t == null) {
      t = requests.computeIfAbsent(key, k -> Timer.builder("tether.http.requests").description("HTTP requests answered")
          .tags("route", route, "method", method, "status", Integer.toString(status))
          .serviceLevelObjectives(StoreMeters.Buckets.LATENCY).register(registry));
    }
    t.record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void frameRefused(String instance, ErrorCode code) {
    String tag = instances.of(instance);
    refused.computeIfAbsent(tag + ' ' + code.name(), k -> Counter.builder("tether.frames.refused")
        .description("Frames POSTed and refused, by error code").tags("instance", tag, "code", code.name())
        .register(registry)).increment();
  }

  /**
   * Registers the gauges of {@code server} (read from {@link TetherServer#stats()} when scraped).
   * The registry holds the server weakly, as Micrometer gauges do.
   */
  public ServerMeters bind(TetherServer server) {
    gauge(server, "tether.waits.active", "Long-polls waiting now", s -> s.waits());
    gauge(server, "tether.streams.active", "NDJSON streams open now", s -> s.streams());
    gauge(server, "tether.ingress.bytes.used", "Request body bytes held now", s -> s.ingressBytes());
    gauge(server, "tether.ingress.bytes.max", "The ingress budget", s -> s.ingressMaxBytes());
    gauge(server, "tether.egress.bytes.used", "Answer bytes held now", s -> s.egressBytes());
    gauge(server, "tether.egress.bytes.max", "The egress budget", s -> s.egressMaxBytes());
    return this;
  }

  private void gauge(TetherServer server, String name, String description, ToDoubleFunction<ServerStats> f) {
    Gauge.builder(name, server, s -> f.applyAsDouble(s.stats())).description(description).register(registry);
  }
}
