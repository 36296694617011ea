package dev.tether.spring.ai;

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
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
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
 * (owner-only temp file, then a rename); writes are serialised by one lock, reads take none.
 * Media that are not images are kept inline (bytes) or as their URL. Message metadata is not kept.
 * Blobs stay when a conversation is deleted: the blob store's garbage collection removes them,
 * given {@link #referencedBlobs()} together with the references of anything else sharing the store.
 * I/O failures are {@link UncheckedIOException}s with a one-line message. Thread-safe.
 */
public final class TetherChatMemoryRepository implements ChatMemoryRepository {
  private final Path dir;
  private final BlobStore blobs;
  private final ReentrantLock writes = new ReentrantLock();

  private TetherChatMemoryRepository(Path dir, BlobStore blobs) {
    this.dir = dir;
    this.blobs = blobs;
  }

  /** A repository keeping conversations in {@code dir} (created owner-only when missing) and images in {@code blobs}. */
  public static TetherChatMemoryRepository open(Path dir, BlobStore blobs) throws IOException {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(blobs, "blobs");
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    return new TetherChatMemoryRepository(dir, blobs);
  }

  @Override
  public List<String> findConversationIds() {
    List<String> ids = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
      for (Path f : files) {
        try {
          ids.add(MemoryCodec.id(Files.readAllBytes(f)));
        } catch (NoSuchFileException e) {
          // deleted meanwhile
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("chat memory directory cannot be listed: " + e.getMessage(), e);
    }
    ids.sort(null);
    return ids;
  }

  @Override
  public List<Message> findByConversationId(String conversationId) {
    Path file = file(conversationId);
    try {
      return MemoryCodec.decode(Files.readAllBytes(file), blobs);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("chat memory " + file.getFileName() + " cannot be read: " + e.getMessage(), e);
    }
  }

  @Override
  public void saveAll(String conversationId, List<Message> messages) {
    Objects.requireNonNull(messages, "messages");
    Path file = file(conversationId);
    writes.lock();
    try {
      byte[] json = MemoryCodec.encode(conversationId, messages, blobs);
      AtomicFiles.write(file, json);
    } catch (IOException e) {
      throw new UncheckedIOException("chat memory " + file.getFileName() + " cannot be written: " + e.getMessage(), e);
    } finally {
      writes.unlock();
    }
  }

  @Override
  public void deleteByConversationId(String conversationId) {
    Path file = file(conversationId);
    writes.lock();
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("chat memory " + file.getFileName() + " cannot be deleted: " + e.getMessage(), e);
    } finally {
      writes.unlock();
    }
  }

  /** Every blob key a stored conversation refers to, for the blob store's garbage collection. */
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

  /** The file of a conversation: the SHA-256 of its id, so no id can name another path. */
  Path file(String conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(conversationId.getBytes(StandardCharsets.UTF_8));
      return dir.resolve(HexFormat.of().formatHex(hash) + ".json");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JVM has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return "TetherChatMemoryRepository{" + dir + "}";
  }
}
