package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.ImageRefs;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import dev.tether.images.Images;
import dev.tether.sessions.ConfinedDirectory;
import dev.tether.sessions.UnsafeFileException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where the server finds and keeps an instance's blobs: the instance's workspace
 * ({@code .aegis/blobs}, the reference clients' layout), and, when several servers share a store,
 * the instance's shared {@link BlobStore} as well, so that every server can serve and accept a ref any of them
 * took. A read tries the workspace first, then the shared blobs; every byte read from either is
 * checked ({@link BlobFiles#verify}). Thread-safe.
 */
final class Blobs {
  private final Function<String, BlobStore> shared; // instance -> its shared blobs; null: one server, workspace only
  private final Limits limits;

  Blobs(Function<String, BlobStore> shared, Limits limits) {
    this.shared = shared;
    this.limits = limits;
  }

  /** {@code entry}'s blobs as a {@link BlobStore} (see {@link InstanceBlobStore}). */
  BlobStore of(InstanceRegistry.Entry entry) {
    return new InstanceBlobStore(this, entry, limits.maxImageBytes());
  }

  /** Whether several servers share these blobs (their instances live in NATS). */
  boolean shared() {
    return shared != null;
  }

  /** The checked bytes of {@code ref} of {@code entry}; {@code BLOB_NOT_FOUND} when neither place has it. */
  byte[] read(InstanceRegistry.Entry entry, ImageRefs.Ref ref) throws IOException {
    try {
      return BlobFiles.read(entry.workspace(), ref, limits);
    } catch (TetherException e) {
      if (shared == null || e.code() != ErrorCode.BLOB_NOT_FOUND) {
        throw e;
      }
      byte[] bytes;
      try {
        bytes = shared.apply(entry.id()).get(BlobKey.of(ref.key()));
      } catch (NoSuchFileException missing) {
        throw e;
      }
      BlobFiles.verify(ref, bytes, limits);
      return bytes;
    }
  }

  /**
   * As {@link #read}, for a frame being accepted: a blob that only this server's workspace has (a
   * reference client wrote it there) is copied into the shared blobs, so other servers can read it.
   */
  byte[] readForIngress(InstanceRegistry.Entry entry, ImageRefs.Ref ref) throws IOException {
    if (shared == null) {
      return read(entry, ref);
    }
    byte[] local;
    try {
      local = BlobFiles.read(entry.workspace(), ref, limits);
    } catch (TetherException e) {
      if (e.code() != ErrorCode.BLOB_NOT_FOUND) {
        throw e;
      }
      return read(entry, ref);
    }
    BlobStore blobs = shared.apply(entry.id());
    if (!blobs.exists(BlobKey.of(ref.key()))) {
      blobs.put(local, ref.mediaType());
    }
    return local;
  }

  /**
   * Opens {@code ref} in the instance's workspace for a download (see {@link BlobFiles#openForRead});
   * {@code BLOB_NOT_FOUND} when the workspace does not have it.
   */
  ConfinedDirectory.OpenFile openLocal(InstanceRegistry.Entry entry, ImageRefs.Ref ref) throws IOException {
    return BlobFiles.openForRead(entry.workspace(), ref, limits);
  }

  /** Checks bytes read for {@code ref} (see {@link BlobFiles#verify}). */
  void verify(ImageRefs.Ref ref, byte[] bytes) {
    BlobFiles.verify(ref, bytes, limits);
  }

  /**
   * Stores an uploaded image (checked like any image) in the workspace and the shared blobs; its
   * key. The workspace's {@code .aegis/blobs} is reached through a {@link ConfinedDirectory}: a
   * link planted anywhere on the way is {@code INVALID_BLOB_REF}, never followed, and the blob is
   * written atomically, owner-only, relative to the opened directory (replacing whatever entry
   * the guest left under the key's name, never writing through it).
   */
  BlobKey put(InstanceRegistry.Entry entry, MediaType type, byte[] buffer, int length) throws IOException {
    byte[] bytes = buffer.length == length ? buffer : Arrays.copyOf(buffer, length);
    Images.requireImage(type, length, bytes, Math.min(length, 16), 0, limits);
    BlobKey key = BlobKey.forContent(bytes, type);
    try (ConfinedDirectory ws = ConfinedDirectory.openOrCreate(entry.workspace());
        ConfinedDirectory dir = BlobFiles.blobDirectory(ws, true)) {
      Optional<BasicFileAttributes> existing = dir.attributes(key.fileName());
      boolean present = existing.isPresent() && existing.get().isRegularFile() && existing.get().size() == length;
      if (!present) {
        dir.write(key.fileName(), bytes);
      }
    } catch (UnsafeFileException e) {
      throw TetherException.of(ErrorCode.INVALID_BLOB_REF, "the blob directory of instance '" + entry.id()
          + "' cannot be used: " + e.describe() + " in the workspace; it must be a plain directory");
    }
    if (shared != null) {
      shared.apply(entry.id()).put(bytes == buffer ? Arrays.copyOf(buffer, length) : bytes, type);
    }
    return key;
  }
}
