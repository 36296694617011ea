package dev.tether.cli;

import dev.tether.server.SharedBlobs;
import dev.tether.server.SharedRegistry;
import dev.tether.api.blobs.BlobKey;
import dev.tether.store.jetstream.JetStreamRegistry;
import dev.tether.store.jetstream.JetStreamTetherStore;
import dev.tether.store.jetstream.RegisteredInstance;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code serve --nats} shares with every other host on the same NATS servers: the registry
 * and watermarks ({@link JetStreamRegistry}, a KV bucket) and the blobs (the store's Object Store,
 * where it also offloads images). The server's two SPIs over the two JetStream types; the mapping
 * only, no state of its own.
 */
final class JetStreamShared implements SharedRegistry, SharedBlobs, AutoCloseable {
  private final JetStreamRegistry registry;
  private final JetStreamTetherStore store;

  private JetStreamShared(JetStreamRegistry registry, JetStreamTetherStore store) {
    this.registry = registry;
    this.store = store;
  }

  /** The registry of {@code store}'s instances (its connection, prefix and replicas). */
  static JetStreamShared open(JetStreamTetherStore store, int maxInstances) throws IOException {
    return new JetStreamShared(JetStreamRegistry.builder().store(store).maxInstances(maxInstances).open(), store);
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
  public Optional<byte[]> read(String instance, String key) throws IOException {
    try {
      return Optional.of(store.readBlob(instance, BlobKey.of(key)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  @Override
  public void put(String instance, String key, byte[] bytes) throws IOException {
    store.putBlob(instance, BlobKey.of(key), bytes);
  }

  @Override
  public void close() {
    registry.close();
  }

  private static Instance instance(RegisteredInstance i) {
    return new Instance(i.id(), i.createdAt(), i.workspace());
  }
}
