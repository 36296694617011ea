package dev.tether.sessions;

import dev.tether.api.files.AtomicFiles;
import dev.tether.api.files.PrivateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A directory of whole documents, one per key: the storage under the chat memories of the
 * LangChain4j and Spring AI bridges, for anything that keeps a small file per conversation.
 *
 * <p>A key's file is named by the SHA-256 of the key's UTF-8 bytes ({@code <hex>.json}), so no key
 * can name another path, however hostile. A write replaces the file atomically ({@link
 * AtomicFiles}: owner-only temp file, fsync, rename), so a reader sees the old document or the new
 * one, never a part. Writes and deletes are serialised by one lock; reads take none. The byte
 * arrays given and returned are not kept or shared. Thread-safe.
 */
public final class KeyedFiles {
  private final Path dir;
  private final ReentrantLock writes = new ReentrantLock();

  private KeyedFiles(Path dir) {
    this.dir = dir;
  }

  /** The documents in {@code dir}, created owner-only ({@code 0700}) when missing. */
  public static KeyedFiles open(Path dir) throws IOException {
    PrivateFiles.createDirectories(Objects.requireNonNull(dir, "dir"));
    return new KeyedFiles(dir);
  }

  /** The document of {@code key}, or empty when there is none. */
  public Optional<byte[]> read(String key) throws IOException {
    try {
      return Optional.of(Files.readAllBytes(file(key)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** Replaces the document of {@code key} with {@code bytes}, atomically. */
  public void write(String key, byte[] bytes) throws IOException {
    Objects.requireNonNull(bytes, "bytes");
    Path file = file(key);
    writes.lock();
    try {
      AtomicFiles.write(file, bytes);
    } finally {
      writes.unlock();
    }
  }

  /** Removes the document of {@code key}; nothing to do when there is none. */
  public void delete(String key) throws IOException {
    Path file = file(key);
    writes.lock();
    try {
      Files.deleteIfExists(file);
    } finally {
      writes.unlock();
    }
  }

  /** What {@link #forEach} calls with each document. */
  @FunctionalInterface
  public interface DocumentAction {
    void accept(byte[] document) throws IOException;
  }

  /**
   * Calls {@code action} with every document, in no particular order; a document deleted while
   * this runs is skipped. An exception of {@code action} ends the walk and propagates.
   */
  public void forEach(DocumentAction action) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
      for (Path f : files) {
        byte[] document;
        try {
          document = Files.readAllBytes(f);
        } catch (NoSuchFileException e) {
          continue; // deleted meanwhile
        }
        action.accept(document);
      }
    }
  }

  /** The file that holds (or would hold) the document of {@code key}. */
  public Path file(String key) {
    Objects.requireNonNull(key, "key");
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return dir.resolve(HexFormat.of().formatHex(hash) + ".json");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JVM has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return "KeyedFiles{" + dir + "}";
  }
}
