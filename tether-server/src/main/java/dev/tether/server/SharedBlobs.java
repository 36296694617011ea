package dev.tether.server;

import java.io.IOException;
import java.util.Optional;

/**
 * Image bytes shared by several servers: what their store offloads and what clients upload, so
 * that {@code GET .../blob/{key}} and a frame's blob refs work on every server (what
 * {@code tether serve --nats} gives its server: the JetStream Object Store). Keys are
 * {@code {sha256-hex}.{png|jpg|gif|webp}}; the server checks every byte it reads back (hash,
 * size, signature) as it does a workspace's. Implementations are thread-safe.
 */
public interface SharedBlobs {
  /** The bytes of blob {@code key} of {@code instance}, or empty when there is none. */
  Optional<byte[]> read(String instance, String key) throws IOException;

  /** Stores {@code bytes} (already checked to hash to {@code key}) as blob {@code key} of {@code instance}. */
  void put(String instance, String key, byte[] bytes) throws IOException;
}
