package dev.tether.spring.ai;

import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import dev.tether.sessions.KeyedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.content.Media;

/**
 * A Spring AI {@link ChatMemoryRepository} that keeps {@link Media}: each conversation is one
 * small JSON file of its messages in which an image is the key of a blob in a tether
 * {@link BlobStore} (content-addressed: the same bytes are one blob however many messages and
 * conversations hold them), and a read gives each image back as bytes with {@code Media.id} = its
 * blob key. (Spring AI's JDBC repository drops media altogether.)
 *
 * <p>Design. A conversation's file is named by the SHA-256 of its id and replaced atomically
 * (owner-only temp file, then a rename: {@link KeyedFiles}); writes are serialised, reads take no lock.
 * Media that are not images are kept inline (bytes) or as their URL. Message metadata is not kept.
 * Blobs stay when a conversation is deleted: the blob store's garbage collection removes them,
 * given {@link #referencedBlobs()} together with the references of anything else sharing the store.
 * I/O failures are {@link UncheckedIOException}s with a one-line message. Thread-safe.
 */
public final class TetherChatMemoryRepository implements ChatMemoryRepository {
  private final KeyedFiles files;
  private final BlobStore blobs;

  private TetherChatMemoryRepository(KeyedFiles files, BlobStore blobs) {
    this.files = files;
    this.blobs = blobs;
  }

  /** A repository keeping conversations in {@code dir} (created owner-only when missing) and images in {@code blobs}. */
  public static TetherChatMemoryRepository open(Path dir, BlobStore blobs) throws IOException {
    Objects.requireNonNull(blobs, "blobs");
    return new TetherChatMemoryRepository(KeyedFiles.open(dir), blobs);
  }

  @Override
  public List<String> findConversationIds() {
    List<String> ids = new ArrayList<>();
    try {
      files.forEach(json -> ids.add(MemoryCodec.id(json)));
    } catch (IOException e) {
      throw new UncheckedIOException("chat memory directory cannot be listed: " + e.getMessage(), e);
    }
    ids.sort(null);
    return ids;
  }

  @Override
  public List<Message> findByConversationId(String conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    try {
      Optional<byte[]> json = files.read(conversationId);
      return json.isEmpty() ? List.of() : MemoryCodec.decode(json.get(), blobs);
    } catch (IOException e) {
      throw failed("read", conversationId, e);
    }
  }

  @Override
  public void saveAll(String conversationId, List<Message> messages) {
    Objects.requireNonNull(conversationId, "conversationId");
    Objects.requireNonNull(messages, "messages");
    try {
      files.write(conversationId, MemoryCodec.encode(conversationId, messages, blobs));
    } catch (IOException e) {
      throw failed("written", conversationId, e);
    }
  }

  @Override
  public void deleteByConversationId(String conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    try {
      files.delete(conversationId);
    } catch (IOException e) {
      throw failed("deleted", conversationId, e);
    }
  }

  /** Every blob key a stored conversation refers to, for the blob store's garbage collection. */
  public Set<BlobKey> referencedBlobs() throws IOException {
    Set<BlobKey> keys = new TreeSet<>();
    files.forEach(json -> MemoryCodec.blobKeys(json, keys));
    return keys;
  }

  /** The file of a conversation: the SHA-256 of its id, so no id can name another path. */
  Path file(String conversationId) {
    return files.file(conversationId);
  }

  private UncheckedIOException failed(String what, String conversationId, IOException e) {
    return new UncheckedIOException("chat memory " + files.file(conversationId).getFileName() + " cannot be " + what + ": " + e.getMessage(), e);
  }

  @Override
  public String toString() {
    return "TetherChatMemoryRepository{" + files + "}";
  }
}
