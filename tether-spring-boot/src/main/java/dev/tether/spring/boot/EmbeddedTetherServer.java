package dev.tether.spring.boot;

import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.store.Readiness;
import dev.tether.store.TetherStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.context.SmartLifecycle;

/**
 * The embedded {@link TetherServer}, started when the application context starts and closed
 * (gracefully: waits answered, requests in flight finished) when it stops. It serves the
 * {@link TetherStore} bean with the {@code tether.server.*} settings and then every
 * {@link TetherServerCustomizer}. Thread-safe.
 */
public final class EmbeddedTetherServer implements SmartLifecycle {
  private final TetherProperties.Server settings;
  private final TetherStore store;
  private final List<TetherServerCustomizer> customizers;
  private final ReentrantLock lock = new ReentrantLock(); // start and stop block: no synchronized
  private volatile TetherServer server;

  public EmbeddedTetherServer(TetherProperties.Server settings, TetherStore store, List<TetherServerCustomizer> customizers) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.store = Objects.requireNonNull(store, "store");
    this.customizers = List.copyOf(customizers);
  }

  /**
   * The running server.
   *
   * @throws IllegalStateException when it is not running
   */
  public TetherServer server() {
    TetherServer s = server;
    if (s == null) {
      throw new IllegalStateException("the embedded tether server is not running");
    }
    return s;
  }

  /** Where the running server listens (TCP port 0 resolved). */
  public HostAddress boundAddress() {
    return server().boundAddress();
  }

  /** The server's readiness (its store's included), or not ready when it is not running. */
  public Readiness readiness() {
    TetherServer s = server;
    return s == null ? Readiness.notReady("the embedded tether server is not running") : s.readiness();
  }

  @Override
  public void start() {
    lock.lock();
    try {
      if (server != null) {
        return;
      }
      TetherServer.Builder b = builder();
      customizers.forEach(c -> c.customize(b));
      TetherServer started;
      try {
        started = b.start();
      } catch (IOException e) {
        throw new UncheckedIOException("the embedded tether server could not start: " + e.getMessage(), e);
      }
      server = started;
      customizers.forEach(c -> c.started(started));
    } finally {
      lock.unlock();
    }
  }

  /** The builder with the properties applied; settings left unset keep the server's defaults. */
  TetherServer.Builder builder() {
    TetherProperties.Server p = settings;
    TetherServer.Builder b = TetherServer.builder().store(store).autoCreate(p.isAutoCreate())
        .allowNonLoopback(p.isAllowNonLoopback());
    if (p.getListen() != null && !p.getListen().isBlank()) {
      b.listen(HostAddress.parse(p.getListen()));
    }
    if (p.getTokenFile() != null) {
      b.tokenFile(p.getTokenFile());
    }
    p.getInstances().forEach(b::instance);
    if (p.getIngressBytes() != null) {
      b.ingressBytes(p.getIngressBytes());
    }
    if (p.getEgressBytes() != null) {
      b.egressBytes(p.getEgressBytes());
    }
    if (p.getMaxWaits() != null) {
      b.maxWaits(p.getMaxWaits());
    }
    if (p.getMaxConnections() != null) {
      b.maxConnections(p.getMaxConnections());
    }
    if (p.getMaxThreads() != null) {
      b.maxThreads(p.getMaxThreads());
    }
    if (p.getInstanceDiskBytes() != null) {
      b.instanceDiskBytes(p.getInstanceDiskBytes());
    }
    return b;
  }

  @Override
  public void stop() {
    lock.lock();
    try {
      TetherServer s = server;
      server = null;
      if (s != null) {
        s.close(); // graceful; also closes the store, which the context then closes again (idempotent)
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean isRunning() {
    return server != null;
  }

  @Override
  public String toString() {
    TetherServer s = server;
    return "EmbeddedTetherServer{" + (s == null ? "stopped" : s.boundAddress()) + "}";
  }
}
