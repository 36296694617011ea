package dev.tether.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import dev.tether.sessions.KeyedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A LangChain4j {@link ChatMemoryStore} that keeps every image once: each memory is one small JSON
 * file of its messages in which an image is the key of a blob in a tether {@link BlobStore}
 * (content-addressed: the same bytes are one blob however many messages and memories hold them),
 * and images become base64 again only when a memory is read. LangChain4j's own serializer writes
 * every image inline into every stored message instead.
 *
 * <p>Design. A memory's file is named by the SHA-256 of {@code memoryId.toString()} (any id is
 * safe as a name) and replaced atomically (a temp file, owner-only, then a rename), so a reader
 * sees the old list or the new one ({@link KeyedFiles}). Writes are serialised; reads take no lock. An
 * image's media type is taken from its bytes. Images given by URL are kept as URLs. What is not
 * kept: message attributes (see {@link MemoryCodec}). The blobs stay when a memory is deleted: the
 * blob store's garbage collection removes them, given {@link #referencedBlobs()} (together with
 * the references of anything else that shares the store, such as a {@code SessionStore}).
 *
 * <p>{@link ChatMemoryStore} has no checked exceptions: I/O failures are
 * {@link UncheckedIOException}s, content that cannot be stored (audio, video, PDF, bytes that are
 * not an image) IllegalArgumentException. Thread-safe.
 */
public final class TetherChatMemoryStore implements ChatMemoryStore {
  private final KeyedFiles files;
  private final BlobStore blobs;

  private TetherChatMemoryStore(KeyedFiles files, BlobStore blobs) {
    this.files = files;
    this.blobs = blobs;
  }

  /**
   * A store keeping memories in {@code dir} (created owner-only when missing) and images in
   * {@code blobs}.
   */
  public static TetherChatMemoryStore open(Path dir, BlobStore blobs) throws IOException {
    Objects.requireNonNull(blobs, "blobs");
    return new TetherChatMemoryStore(KeyedFiles.open(dir), blobs);
  }

  @Override
  public List<ChatMessage> getMessages(Object memoryId) {
    String key = key(memoryId);
    try {
      Optional<byte[]> json = files.read(key);
      return json.isEmpty() ? List.of() : MemoryCodec.decode(json.get(), blobs);
    } catch (IOException e) {
      throw failed("read", key, e);
    }
  }

  @Override
  public void updateMessages(Object memoryId, List<ChatMessage> messages) {
    Objects.requireNonNull(messages, "messages");
    String key = key(memoryId);
    try {
      files.write(key, MemoryCodec.encode(key, messages, blobs));
    } catch (IOException e) {
      throw failed("written", key, e);
    }
  }

  @Override
  public void deleteMessages(Object memoryId) {
    String key = key(memoryId);
    try {
      files.delete(key);
    } catch (IOException e) {
      throw failed("deleted", key, e);
    }
  }

  /** Every blob key a stored memory refers to, for the blob store's garbage collection. */
  public Set<BlobKey> referencedBlobs() throws IOException {
    Set<BlobKey> keys = new TreeSet<>();
    files.forEach(json -> MemoryCodec.blobKeys(json, keys));
    return keys;
  }

  /** The file of a memory: the SHA-256 of its id, so no id can name another path. */
  Path file(Object memoryId) {
    return files.file(key(memoryId));
  }

  private static String key(Object memoryId) {
    return Objects.requireNonNull(memoryId, "memoryId").toString();
  }

  private UncheckedIOException failed(String what, String key, IOException e) {
    return new UncheckedIOException("chat memory " + files.file(key).getFileName() + " cannot be " + what + ": " + e.getMessage(), e);
  }

  @Override
  public String toString() {
    return "TetherChatMemoryStore{" + files + "}";
  }
}
