package dev.tether.cli;

import dev.tether.client.HostAddress;
import dev.tether.micrometer.InstanceTags;
import dev.tether.micrometer.TetherMeters;
import dev.tether.store.Readiness;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * The operations flags that {@code serve} and the bridges share: {@code --metrics HOST:PORT} (a
 * {@link MetricsEndpoint}) and {@code --metrics-instance NAME}. With no {@code --metrics} nothing
 * is measured: no registry, no listener, so the hot paths pay nothing.
 */
final class MetricsOptions {
  @Option(names = "--metrics", paramLabel = "HOST:PORT",
      description = {"Serve Prometheus metrics at http://HOST:PORT/metrics, readiness at /ready and liveness at /health,"
          + " on a listener of their own: loopback only unless --allow-non-loopback (then every request needs the API's"
          + " bearer token). Port 0 picks a free port. Default: no metrics, nothing measured."})
  String metrics;

  @Option(names = "--metrics-instance", paramLabel = "NAME", split = ",",
      description = {"Instances whose meters carry their own 'instance' tag (repeatable). The instances named with --instance"
          + " are always tagged; every other instance is counted under instance=\"_other\", so many instances cannot"
          + " explode the number of series."})
  List<String> metricsInstances;

  private PrometheusMeterRegistry registry;
  private TetherMeters meters;

  /** Whether {@code --metrics} was given. */
  boolean enabled() {
    return metrics != null;
  }

  /** The meters to bind (null without {@code --metrics}); {@code tagged} instances keep their own tag. */
  TetherMeters meters(Set<String> tagged) {
    if (!enabled()) {
      return null;
    }
    if (meters == null) {
      registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      new JvmMemoryMetrics().bindTo(registry);
      new JvmThreadMetrics().bindTo(registry);
      new ProcessorMetrics().bindTo(registry);
      new UptimeMetrics().bindTo(registry);
      @SuppressWarnings("resource") // lives as long as the process
      JvmGcMetrics gc = new JvmGcMetrics();
      gc.bindTo(registry);
      Set<String> names = new LinkedHashSet<>(tagged);
      if (metricsInstances != null) {
        names.addAll(metricsInstances);
      }
      meters = TetherMeters.of(registry).instanceTags(InstanceTags.only(names));
    }
    return meters;
  }

  /**
   * Starts the listener (after {@link #meters}); prints its URL on stderr as {@code command: metrics: URL}.
   *
   * @throws UsageException when the address is not HOST:PORT, or not loopback and not allowed
   */
  MetricsEndpoint start(String command, boolean allowNonLoopback, String token, Supplier<Readiness> readiness)
      throws IOException {
    HostAddress.Tcp address = ServeCommand.parseTcp("--metrics", metrics);
    if (!address.isLoopback() && !allowNonLoopback) {
      throw new UsageException("refusing to serve metrics on non-loopback " + address
          + "; use 127.0.0.1, or pass --allow-non-loopback if you really mean it");
    }
    MetricsEndpoint endpoint;
    try {
      endpoint = MetricsEndpoint.start(address, registry, readiness, token);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--metrics: " + e.getMessage());
    }
    String host = address.host().contains(":") ? "[" + address.host() + "]" : address.host();
    System.err.println(command + ": metrics: http://" + host + ":" + endpoint.port() + "/metrics");
    return endpoint;
  }
}
