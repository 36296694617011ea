package dev.tether.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import dev.tether.api.files.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A LangChain4j {@link ChatMemoryStore} that keeps every image once: each memory is one small JSON
 * file of its messages in which an image is the key of a blob in a tether {@link BlobStore}
 * (content-addressed: the same bytes are one blob however many messages and memories hold them),
 * and images become base64 again only when a memory is read. LangChain4j's own serializer writes
 * every image inline into every stored message instead.
 *
 * <p>Design. A memory's file is named by the SHA-256 of {@code memoryId.toString()} (any id is
 * safe as a name) and replaced atomically (a temp file, owner-only, then a rename), so a reader
 * sees the old list or the new one. Writes are serialised by one lock; reads take none. An
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
  private final Path dir;
  private final BlobStore blobs;
  private final ReentrantLock writes = new ReentrantLock();

  private TetherChatMemoryStore(Path dir, BlobStore blobs) {
    this.dir = dir;
    this.blobs = blobs;
  }

  /**
   * A store keeping memories in {@code dir} (created owner-only when missing) and images in
   * {@code blobs}.
   */
  public static TetherChatMemoryStore open(Path dir, BlobStore blobs) throws IOException {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(blobs, "blobs");
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    return new TetherChatMemoryStore(dir, blobs);
  }

  @Override
  public List<ChatMessage> getMessages(Object memoryId) {
    Path file = file(memoryId);
    try {
      return MemoryCodec.decode(Files.readAllBytes(file), blobs);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("chat memory " + file.getFileName() + " cannot be read: " + e.getMessage(), e);
    }
  }

  @Override
  public void updateMessages(Object memoryId, List<ChatMessage> messages) {
    Objects.requireNonNull(messages, "messages");
    Path file = file(memoryId);
    writes.lock();
    try {
      byte[] json = MemoryCodec.encode(memoryId.toString(), messages, blobs);
      AtomicFiles.write(file, json);
    } catch (IOException e) {
      throw new UncheckedIOException("chat memory " + file.getFileName() + " cannot be written: " + e.getMessage(), e);
    } finally {
      writes.unlock();
    }
  }

  @Override
  public void deleteMessages(Object memoryId) {
    Path file = file(memoryId);
    writes.lock();
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("chat memory " + file.getFileName() + " cannot be deleted: " + e.getMessage(), e);
    } finally {
      writes.unlock();
    }
  }

  /** Every blob key a stored memory refers to, for the blob store's garbage collection. */
  public Set<BlobKey> referencedBlobs() throws IOException {
    Set<BlobKey> keys = new TreeSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
      for (Path f : files) {
        try {
          MemoryCodec.blobKeys(Files.readAllBytes(f), keys);
        } catch (NoSuchFileException e) {
          // deleted meanwhile
        }
      }
    }
    return keys;
  }

  /** The file of a memory: the SHA-256 of its id, so no id can name another path. */
  Path file(Object memoryId) {
    Objects.requireNonNull(memoryId, "memoryId");
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(memoryId.toString().getBytes(StandardCharsets.UTF_8));
      return dir.resolve(HexFormat.of().formatHex(hash) + ".json");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JVM has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return "TetherChatMemoryStore{" + dir + "}";
  }
}
