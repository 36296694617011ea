package dev.tether.server;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The instance registry and watermarks of several servers that share one store, so that a
 * {@code PUT} or {@code DELETE} on any of them holds on all (what {@code tether serve --nats}
 * gives its server: a JetStream KV bucket). Without one, a server keeps its own registry.
 *
 * <p>Implementations are thread-safe and run no caller code. A call that cannot reach the shared
 * storage throws {@link dev.tether.store.StoreUnavailableException} (the API answers 503); a full
 * registry throws a {@link dev.tether.api.TetherException} with {@code TOO_MANY_INSTANCES}.
 */
public interface SharedRegistry {
  /**
   * One instance as every server sees it.
   *
   * @param id the instance id
   * @param createdAt when it was first registered
   * @param workspace the workspace the registering server gave it, or null (another server's disk
   *     may not have it: each server uses its own default then)
   */
  record Instance(String id, Instant createdAt, String workspace) {
    public Instance {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(createdAt, "createdAt");
    }
  }

  /** The outcome of {@link #create}: the instance as registered, and whether this call made it. */
  record Created(Instance instance, boolean created) {}

  Optional<Instance> get(String id);

  List<Instance> list();

  /** Registers {@code id} unless it exists (atomically, across servers); an existing entry is returned unchanged. */
  Created create(String id, String workspace);

  /** Forgets {@code id} and its watermarks; false when it was not registered. */
  boolean delete(String id);

  /** The watermark of {@code channel} on {@code id}, 0 when never set. */
  long watermark(String id, String channel);

  void setWatermark(String id, String channel, long seq);

  /**
   * The instance tokens every server sharing this registry sees, or empty when each server keeps
   * its own (the default).
   */
  default Optional<SharedTokens> tokens() {
    return Optional.empty();
  }
}
