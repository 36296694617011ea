package dev.tether.store;

import dev.tether.api.MediaType;
import dev.tether.api.blobs.BlobCorruptedException;
import dev.tether.api.blobs.BlobGcResult;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * A plain directory of blob files as a {@link BlobStore}, for tests of modules that do not depend
 * on tether-sessions' {@code FileBlobStore}: reads verify the hash, as the contract says; no GC.
 */
final class DirectoryBlobStore implements BlobStore {
  private final Path dir;

  DirectoryBlobStore(Path dir) {
    this.dir = dir;
  }

  @Override
  public BlobKey put(byte[] bytes, MediaType mediaType) throws IOException {
    BlobKey key = BlobKey.forContent(bytes, mediaType);
    Files.write(dir.resolve(key.fileName()), bytes);
    return key;
  }

  @Override
  public BlobKey put(InputStream in, MediaType mediaType) throws IOException {
    return put(in.readAllBytes(), mediaType);
  }

  @Override
  public byte[] get(BlobKey key) throws IOException {
    byte[] bytes = Files.readAllBytes(dir.resolve(key.fileName()));
    if (!key.matches(BlobKey.sha256().digest(bytes))) {
      throw new BlobCorruptedException(key, "the bytes do not hash to the key");
    }
    return bytes;
  }

  @Override
  public InputStream open(BlobKey key) throws IOException {
    return new ByteArrayInputStream(get(key));
  }

  @Override
  public boolean exists(BlobKey key) {
    return Files.isRegularFile(dir.resolve(key.fileName()));
  }

  @Override
  public boolean delete(BlobKey key) throws IOException {
    return Files.deleteIfExists(dir.resolve(key.fileName()));
  }

  @Override
  public BlobGcResult collectGarbage(Predicate<BlobKey> isReferenced, Duration gracePeriod) {
    throw new UnsupportedOperationException("no GC in the test store");
  }
}
