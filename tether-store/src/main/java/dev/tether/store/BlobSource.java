package dev.tether.store;

import dev.tether.api.ImageRefs;
import java.io.IOException;

/**
 * Where the blobs that an instance's frames name ({@code {"blob": key}} images) are read from, so
 * that an in-process reader sees images inline whichever form was stored. {@link StoreTetherClient}
 * uses one to resolve the refs of every page it returns, as the HTTP client does with the host's
 * blob endpoint.
 *
 * <p>Implementations treat the bytes as untrusted and check them (the key's hash, the size, the
 * image signature) before returning them; a blob that is not there is a
 * {@link java.nio.file.NoSuchFileException}, a blob that fails a check a
 * {@link dev.tether.api.TetherException} naming the image. Implementations are thread-safe.
 */
@FunctionalInterface
public interface BlobSource {
  /** The checked bytes of the blob {@code ref} names, in {@code instance}'s blob store. */
  byte[] read(String instance, ImageRefs.Ref ref) throws IOException;
}
