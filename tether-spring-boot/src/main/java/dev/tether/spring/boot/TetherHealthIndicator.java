package dev.tether.spring.boot;

import dev.tether.store.Readiness;
import dev.tether.store.TetherStore;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * UP when the store (and the embedded server, when there is one) report themselves ready; DOWN with
 * the reason they give otherwise. The details name the store; never a token or a path. A check may
 * make one request to the store's server (JetStream): it runs when the health endpoint is read.
 */
public final class TetherHealthIndicator implements HealthIndicator {
  private final TetherStore store;
  private final Supplier<Readiness> server;

  /**
   * @param store the store whose {@link TetherStore#readiness()} is reported
   * @param server the embedded server's readiness, or null when there is no embedded server
   */
  public TetherHealthIndicator(TetherStore store, Supplier<Readiness> server) {
    this.store = Objects.requireNonNull(store, "store");
    this.server = server;
  }

  @Override
  public Health health() {
    Readiness s = store.readiness();
    Health.Builder b = (s.ready() ? Health.up() : Health.down().withDetail("reason", s.reason()))
        .withDetail("store", store.getClass().getSimpleName());
    if (server != null && s.ready()) {
      Readiness r = server.get();
      b = r.ready() ? b.withDetail("server", "ready") : Health.down().withDetail("store", store.getClass().getSimpleName())
          .withDetail("server", "not ready").withDetail("reason", r.reason());
    }
    return b.build();
  }
}
