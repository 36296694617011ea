package dev.tether.api.blobs;

import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * A content-addressed store of image bytes: the same bytes stored twice are one blob under one
 * {@link BlobKey}. The one bytes-by-key interface of tether: the session store, the in-process
 * store client and the server all read and write images through it ({@code FileBlobStore} in
 * tether-sessions keeps blobs as files, {@code ObjectStoreBlobStore} in tether-store-jetstream in a
 * JetStream Object Store bucket).
 *
 * <p>Contract for implementations: thread-safe; {@code put} is atomic (a reader sees the whole
 * blob or none) and idempotent (concurrent puts of the same bytes are safe); reads verify the
 * bytes against the key; a missing blob is a {@link NoSuchFileException} and a corrupt one a
 * {@link BlobCorruptedException}; bad image input (over the size limit, a media type the store
 * does not take, bytes that do not match the declared type) is a {@link TetherException}.
 */
public interface BlobStore {

  /** Stores {@code bytes} as {@code mediaType} and returns their key. The array is not kept. */
  BlobKey put(byte[] bytes, MediaType mediaType) throws IOException;

  /**
   * Stores everything {@code in} yields as {@code mediaType}, hashing while it writes, and returns
   * the key. Reads at most one byte more than the size limit. The stream is not closed.
   */
  BlobKey put(InputStream in, MediaType mediaType) throws IOException;

  /** The verified bytes of a blob. */
  byte[] get(BlobKey key) throws IOException;

  /**
   * A stream over a blob's bytes. The hash is checked when the stream reaches its end, where a
   * mismatch is thrown as {@link BlobCorruptedException}; a caller that stops early gets no check.
   */
  InputStream open(BlobKey key) throws IOException;

  boolean exists(BlobKey key) throws IOException;

  /** Deletes a blob; false when there was none. */
  boolean delete(BlobKey key) throws IOException;

  /**
   * Deletes every blob that {@code isReferenced} rejects and that no put has written or refreshed
   * within {@code gracePeriod}, plus abandoned temp files older than it.
   *
   * <p>The caller snapshots its references <em>before</em> calling. A put that stores or
   * deduplicates a blob marks it fresh, so a turn that references it is safe as long as it is
   * appended within the grace period of its put. Choose a grace period longer than the slowest
   * put too: a temp file older than it is taken for the leftover of a crash and deleted.
   */
  BlobGcResult collectGarbage(Predicate<BlobKey> isReferenced, Duration gracePeriod) throws IOException;
}
