package dev.tether.server.jetstream;

import dev.tether.api.blobs.BlobStore;
import dev.tether.server.SharedAttachments;
import dev.tether.server.SharedRegistry;
import dev.tether.server.SharedStorage;
import dev.tether.server.SharedTokens;
import dev.tether.store.jetstream.JetStreamRegistry;
import dev.tether.store.jetstream.JetStreamTetherStore;
import dev.tether.store.jetstream.JetStreamTokens;
import dev.tether.store.jetstream.RegisteredInstance;
import dev.tether.store.TetherStore;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * What {@code serve --nats} shares with every other host on the same NATS servers: the registry
 * and watermarks ({@link JetStreamRegistry}, a KV bucket), the instance tokens' hashes
 * ({@link JetStreamTokens}, another), the blobs (the store's Object Store,
 * where it also offloads images) and the session attachments ({@link JetStreamAttachments}). The server's two SPIs over the two JetStream types; the mapping
 * only, no state of its own.
 *
 * <p>An embedder gets every host-sharing feature with one call, the one {@code tether serve --nats}
 * makes:
 *
 * <pre>{@code
 * TetherServer server = TetherServer.builder()
 *     .shared(JetStreamShared.on(JetStreamTetherStore.builder().servers("nats://127.0.0.1:4222")))
 *     .start();
 * }</pre>
 *
 * Thread-safe.
 */
public final class JetStreamShared implements SharedRegistry, SharedStorage.Opened {
  private final JetStreamRegistry registry;
  private final JetStreamTetherStore store;
  private final JetStreamTokens tokens;
  private final SharedTokens sharedTokens;
  private final SharedAttachments attachments;

  private JetStreamShared(JetStreamRegistry registry, JetStreamTetherStore store, JetStreamTokens tokens,
      SharedAttachments attachments) {
    this.registry = registry;
    this.store = store;
    this.tokens = tokens;
    this.sharedTokens = new JetStreamSharedTokens(tokens);
    this.attachments = attachments;
  }

  /**
   * Storage shared with every server given the same NATS servers. The server connects at its
   * {@code start()}: it sets the store's {@linkplain JetStreamTetherStore.Builder#retention
   * retention}, {@linkplain JetStreamTetherStore.Builder#maxViews view cap},
   * {@linkplain JetStreamTetherStore.Builder#maxTotalBytes byte budget across views} and
   * {@linkplain JetStreamTetherStore.Builder#listener listener} from its own memory budget, deltas
   * rule and store listener (as it bounds its default store), and keeps the rest of
   * {@code connection} (servers, credentials, TLS, replicas, timeouts). {@code connection} is used
   * once; do not change it afterwards.
   */
  public static SharedStorage on(JetStreamTetherStore.Builder connection) {
    Objects.requireNonNull(connection, "connection");
    return limits -> {
      JetStreamTetherStore store = connection.retention(limits.retention()).maxViews(limits.maxInstances())
          .maxTotalBytes(limits.storeBytes()).listener(limits.listener()).connect();
      try {
        return open(store, limits.maxInstances());
      } catch (IOException | RuntimeException e) {
        store.close();
        throw e;
      }
    };
  }

  /** As {@link #on(JetStreamTetherStore.Builder)} with the store's defaults at {@code servers} ({@code nats://host:4222}). */
  public static SharedStorage on(String... servers) {
    return on(JetStreamTetherStore.builder().servers(servers));
  }

  /** The registry of {@code store}'s instances (its connection, prefix and replicas). */
  static JetStreamShared open(JetStreamTetherStore store, int maxInstances) throws IOException {
    JetStreamRegistry registry = JetStreamRegistry.builder().store(store).maxInstances(maxInstances).open();
    JetStreamTokens tokens = null;
    try {
      tokens = JetStreamTokens.open(store);
      return new JetStreamShared(registry, store, tokens, JetStreamAttachments.open(store));
    } catch (IOException | RuntimeException e) {
      if (tokens != null) {
        tokens.close();
      }
      registry.close();
      throw e;
    }
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

  /** The instance tokens, in their own KV bucket ({@link JetStreamTokens}). */
  @Override
  public Optional<SharedTokens> tokens() {
    return Optional.of(sharedTokens);
  }

  @Override
  public TetherStore store() {
    return store;
  }

  @Override
  public SharedRegistry registry() {
    return this;
  }

  /** Each instance's Object Store bucket, as the store serves it to hosts ({@link JetStreamTetherStore#hostBlobs}). */
  @Override
  public Function<String, BlobStore> blobs() {
    return store::hostBlobs;
  }

  /**
   * The session attachments, in an Object Store bucket and a KV bucket of their own
   * ({@code <PREFIX>_ATTACHMENTS}; see {@link JetStreamAttachments}).
   */
  @Override
  public Optional<SharedAttachments> attachments() {
    return Optional.of(attachments);
  }

  @Override
  public void close() {
    tokens.close();
    registry.close();
  }

  private static Instance instance(RegisteredInstance i) {
    return new Instance(i.id(), i.createdAt(), i.workspace());
  }
}
