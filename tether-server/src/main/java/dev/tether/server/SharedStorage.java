package dev.tether.server;

import dev.tether.api.blobs.BlobStore;
import dev.tether.store.Retention;
import dev.tether.store.StoreListener;
import dev.tether.store.TetherStore;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Storage that several servers share: given to {@link TetherServer.Builder#shared}, it supplies
 * the frames, the instance registry with its watermarks, the blobs and the attachments at once, so every feature
 * that can span hosts does. What {@code tether serve --nats} runs is
 * {@code TetherServer.builder().shared(JetStreamShared.on(...))} (module
 * {@code tether-server-jetstream}).
 *
 * <p>The server calls {@link #open} once, from {@link TetherServer.Builder#start()}, with the
 * limits of its own builder (so a shared store is bounded exactly as the default store would be),
 * and closes what it got when it stops, after its store. Implementations are thread-safe.
 */
@FunctionalInterface
public interface SharedStorage {
  /**
   * Connects for one server.
   *
   * @throws IOException when the shared storage cannot be reached (the server does not start)
   */
  Opened open(Limits limits) throws IOException;

  /**
   * The server's limits for the store it is given: what one instance keeps, instances held at
   * once, the frame bytes this host's copies of all instances may hold together (its memory
   * budget's store bytes, {@code --store-max-bytes}), and who is told of appends and evictions.
   */
  record Limits(Retention retention, int maxInstances, long storeBytes, StoreListener listener) {
    public Limits {
      if (storeBytes < 1) {
        throw new IllegalArgumentException("storeBytes must be >= 1 but was " + storeBytes);
      }
      Objects.requireNonNull(retention, "retention");
      Objects.requireNonNull(listener, "listener");
      if (maxInstances < 1) {
        throw new IllegalArgumentException("maxInstances must be >= 1 but was " + maxInstances);
      }
    }
  }

  /** One server's connection: the three parts it uses, closed by the server when it stops. */
  interface Opened extends AutoCloseable {
    /** The frames; the server closes it on stop, before {@link #close()}. */
    TetherStore store();

    /** The instance registry and watermarks every server sees. */
    SharedRegistry registry();

    /** Each instance's blobs, which every server serves and accepts refs to. */
    Function<String, BlobStore> blobs();

    /**
     * The session attachments every server sharing this storage lists, reads and deletes, or empty
     * when this storage keeps none (the server then answers its attachment routes with 501
     * {@code NOT_IMPLEMENTED}, since a file kept on one host would be missing on the others).
     */
    default Optional<SharedAttachments> attachments() {
      return Optional.empty();
    }

    /** Releases what {@link #open} took besides the store; idempotent, throws nothing. */
    @Override
    void close();
  }
}
