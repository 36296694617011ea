package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.AttachmentInfo;
import dev.tether.media.Attachment;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The attachment routes ({@link AttachmentRoutes}) for an in-process caller ({@link LocalClient}):
 * the same {@link AttachmentStore}, the same checks on the session and name (1 to
 * {@value AttachmentRoutes#MAX_PARAM_CHARS} characters), the same size cap
 * ({@code UPLOAD_TOO_LARGE}), the same disk budget per instance ({@code INSUFFICIENT_STORAGE}) and
 * the same codes ({@code INSTANCE_NOT_FOUND}, {@code UNKNOWN_ATTACHMENT}, {@code NOT_IMPLEMENTED}
 * on a server that shares its instances), without the HTTP hop. What is not the same: no ingress
 * budget (the caller holds the bytes already) and no egress streaming (a read returns the bytes).
 *
 * <p>Every call does its file work on the server's executor (the Jetty pool once the server has
 * started), never on the caller's thread, and completes its future there; a disk failure completes
 * it with {@code INTERNAL} and the reason. Stateless and thread-safe.
 */
final class LocalAttachments {
  private final Attachments store;
  private final DiskBudget disk;
  private final InstanceRegistry registry;
  private final Supplier<Executor> executor;

  /** File work that answers a call. */
  @FunctionalInterface
  private interface IoWork<T> {
    T get() throws IOException;
  }

  LocalAttachments(Attachments store, DiskBudget disk, InstanceRegistry registry, Supplier<Executor> executor) {
    this.store = Objects.requireNonNull(store, "store");
    this.disk = Objects.requireNonNull(disk, "disk");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  /** As {@code POST .../attachments}: sanitised name, declared type verbatim, within the cap and the disk budget. */
  CompletableFuture<AttachmentInfo> put(String instance, SessionKey session, String fileName, String mimeType, byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    return run(() -> {
      SessionKey checked = checked(session);
      String name = AttachmentRoutes.uploadName(fileName);
      InstanceRegistry.Entry entry = entry(instance);
      if (bytes.length > store.maxBytes()) {
        throw TetherException.of(ErrorCode.UPLOAD_TOO_LARGE, "the attachment is " + bytes.length + " bytes, more than "
            + store.maxBytes() + " bytes, the limit for one attachment");
      }
      byte[] copy = bytes.clone(); // the caller may reuse its array once this returns
      return info(disk.write(entry, copy.length, AttachmentRoutes.manifestEntryBytes(name, mimeType),
          () -> store.save(entry, checked, name, mimeType, copy)));
    });
  }

  /** As {@code GET .../attachments}: in the order stored; none for a session that has none. */
  CompletableFuture<List<AttachmentInfo>> list(String instance, SessionKey session) {
    return run(() -> store.list(entry(instance), checked(session)).stream().map(LocalAttachments::info).toList());
  }

  /** As {@code GET .../attachments/{name}}: the whole file ({@code UNKNOWN_ATTACHMENT} when not listed). */
  CompletableFuture<byte[]> read(String instance, SessionKey session, String name) {
    return run(() -> {
      InstanceRegistry.Entry entry = entry(instance);
      SessionKey checked = checked(session);
      Attachments.Opened opened = store.open(entry, checked, AttachmentRoutes.uploadName(name));
      try (ReadableByteChannel channel = opened.channel()) {
        return readFully(channel, opened.size(), name);
      }
    });
  }

  /** As {@code DELETE .../attachments/{name}}: frees its bytes of the instance's disk budget. */
  CompletableFuture<Void> delete(String instance, SessionKey session, String name) {
    return run(() -> {
      store.delete(entry(instance), checked(session), AttachmentRoutes.uploadName(name));
      return null;
    });
  }

  /** Exactly {@code size} bytes of {@code channel} (at most one attachment's limit, checked by the store). */
  private static byte[] readFully(ReadableByteChannel channel, long size, String name) throws IOException {
    ByteBuffer into = ByteBuffer.allocate(Math.toIntExact(size));
    while (into.hasRemaining()) {
      if (channel.read(into) < 0) {
        throw new IOException("attachment '" + name + "' ended after " + into.position() + " of its " + size + " bytes");
      }
    }
    return into.array();
  }

  private InstanceRegistry.Entry entry(String instance) {
    Objects.requireNonNull(instance, "instance");
    try {
      return registry.require(instance);
    } catch (IllegalArgumentException e) {
      throw TetherException.of(ErrorCode.INVALID_ARGUMENT, e.getMessage());
    }
  }

  private static SessionKey checked(SessionKey session) {
    Objects.requireNonNull(session, "session");
    return AttachmentRoutes.session(session.channel(), session.id());
  }

  private static AttachmentInfo info(Attachment a) {
    return new AttachmentInfo(a.fileName(), a.mimeType(), a.size(), a.addedAt());
  }

  private <T> CompletableFuture<T> run(IoWork<T> work) {
    CompletableFuture<T> answer = new CompletableFuture<>();
    try {
      executor.get().execute(() -> {
        try {
          answer.complete(work.get());
        } catch (IOException e) {
          answer.completeExceptionally(TetherException.of(ErrorCode.INTERNAL, "the host cannot use its attachments: "
              + e.getMessage()));
        } catch (RuntimeException e) {
          answer.completeExceptionally(e);
        }
      });
    } catch (RuntimeException e) { // the pool is stopping
      answer.completeExceptionally(TetherException.of(ErrorCode.SHUTTING_DOWN, "the server is shutting down"));
    }
    return answer;
  }
}
