package dev.tether.server;

import dev.tether.api.SessionKey;
import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The session attachments of several servers that share one storage ({@link SharedStorage.Opened#attachments}),
 * so a file uploaded through any of them is listed, read, viewed and deleted through all, behind
 * the same routes, limits and budget as a single server's attachment directory. What
 * {@code tether serve --nats} gives its server: a JetStream Object Store with a KV of manifests
 * ({@code JetStreamShared}).
 *
 * <p><b>Generations.</b> Everything is kept per {@link Place#generation()}, the {@code createdAt}
 * of the instance's registration: an id deleted and registered again starts with no attachments,
 * even when removing the old ones failed.
 *
 * <p><b>What the server has checked.</b> Names given to {@link #save} are already sanitised
 * (plain file names), the MIME type is valid and the bytes are within the server's size limit.
 * An implementation keeps them verbatim.
 *
 * <p><b>Budget.</b> {@link #bytes} is the total of the attachment bytes of one registration, the
 * same on every server; {@link #save} reserves an upload's bytes in that total atomically across
 * servers, so concurrent uploads on several hosts cannot together pass the budget.
 *
 * <p>Implementations are thread-safe and run no caller code except the {@code names} function. A
 * call that cannot reach the shared storage throws {@link dev.tether.store.StoreUnavailableException}
 * (the API answers 503).
 */
public interface SharedAttachments {
  /**
   * One session's attachments.
   *
   * @param instance the instance id
   * @param generation the {@code createdAt} of the instance's registration
   * @param session the session
   */
  record Place(String instance, Instant generation, SessionKey session) {
    public Place {
      Objects.requireNonNull(instance, "instance");
      Objects.requireNonNull(generation, "generation");
      Objects.requireNonNull(session, "session");
    }
  }

  /**
   * One stored attachment.
   *
   * @param name the name it is listed and looked up under (exactly)
   * @param mimeType the MIME type the client declared, verbatim
   * @param size its size in bytes
   * @param addedAt when it was stored
   */
  record Stored(String name, String mimeType, long size, Instant addedAt) {
    public Stored {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(mimeType, "mimeType");
      Objects.requireNonNull(addedAt, "addedAt");
      if (size < 0) {
        throw new IllegalArgumentException("size must be >= 0 but was " + size);
      }
    }
  }

  /**
   * An attachment opened for reading: its bytes are read from {@code bytes} as they are consumed
   * (a window at a time, never the whole file at once); the caller closes it.
   */
  record Download(Stored attachment, ReadableByteChannel bytes) {
    public Download {
      Objects.requireNonNull(attachment, "attachment");
      Objects.requireNonNull(bytes, "bytes");
    }
  }

  /**
   * Stores {@code bytes} under the first of {@code names.apply(0)}, {@code names.apply(1)}, ...
   * that no attachment of {@code place} has (ignoring case), and lists it last; atomic across
   * servers. {@code bytes} is not copied and must not change during the call.
   *
   * @param maxTotalBytes the most {@link #bytes} of the registration may reach with this upload
   *     ({@link Long#MAX_VALUE}: no budget)
   * @throws dev.tether.api.TetherException {@code INSUFFICIENT_STORAGE} when the upload does not
   *     fit in {@code maxTotalBytes} (nothing stored), {@code INVALID_UPLOAD} when the session holds
   *     as many attachments as it may
   */
  Stored save(Place place, IntFunction<String> names, String mimeType, byte[] bytes, long maxTotalBytes) throws IOException;

  /** The attachments of {@code place} in the order they were stored; none when it has none. */
  List<Stored> list(Place place) throws IOException;

  /** Opens the attachment listed under exactly {@code name}; empty when there is none. */
  Optional<Download> open(Place place, String name) throws IOException;

  /** Removes the attachment listed under exactly {@code name} and its bytes; empty when there is none. */
  Optional<Stored> remove(Place place, String name) throws IOException;

  /** The bytes of every attachment of the registration ({@code instance}, {@code generation}), 0 when none. */
  long bytes(String instance, Instant generation) throws IOException;

  /** Removes every attachment of the registration ({@code instance}, {@code generation}); on DELETE of the instance. */
  void removeInstance(String instance, Instant generation) throws IOException;
}
