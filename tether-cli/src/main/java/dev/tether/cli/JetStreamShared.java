package dev.tether.cli;

import dev.tether.server.SharedRegistry;
import dev.tether.store.jetstream.JetStreamRegistry;
import dev.tether.store.jetstream.JetStreamTetherStore;
import dev.tether.store.jetstream.RegisteredInstance;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code serve --nats} shares with every other host on the same NATS servers: the registry
 * and watermarks ({@link JetStreamRegistry}, a KV bucket). The blobs are shared through
 * {@link JetStreamTetherStore#hostBlobs} (the store's Object Store, where it also offloads images).
 * The server's registry SPI over the JetStream type; the mapping only, no state of its own.
 */
final class JetStreamShared implements SharedRegistry, AutoCloseable {
  private final JetStreamRegistry registry;

  private JetStreamShared(JetStreamRegistry registry) {
    this.registry = registry;
  }

  /** The registry of {@code store}'s instances (its connection, prefix and replicas). */
  static JetStreamShared open(JetStreamTetherStore store, int maxInstances) throws IOException {
    return new JetStreamShared(JetStreamRegistry.builder().store(store).maxInstances(maxInstances).open());
  }

  @Override
  public Optional<Instance> get(String id) {
    return registry.get(id).map(JetStreamShared::instance);
  }

  @Override
  public List<Instance> list() {
    return registry.list().stream().map(JetStreamShared::instance).toList();
  }

  @Override
  public Created create(String id, String workspace) {
    JetStreamRegistry.Created c = registry.create(id, workspace, Map.of());
    return new Created(instance(c.instance()), c.created());
  }

  @Override
  public boolean delete(String id) {
    return registry.delete(id);
  }

  @Override
  public long watermark(String id, String channel) {
    return registry.watermark(id, channel);
  }

  @Override
  public void setWatermark(String id, String channel, long seq) {
    registry.setWatermark(id, channel, seq);
  }

  @Override
  public void close() {
    registry.close();
  }

  private static Instance instance(RegisteredInstance i) {
    return new Instance(i.id(), i.createdAt(), i.workspace());
  }
}
