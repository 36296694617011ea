package dev.tether.sessions;

import dev.tether.api.blobs.BlobStore;
import dev.tether.api.Frame;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.User;
import dev.tether.images.Images;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/** Test data: images that pass the signature check, frames, turns, stores in a temp directory. */
final class Fixtures {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

  private Fixtures() {}

  static byte[] png(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    System.arraycopy(PNG, 0, bytes, 0, PNG.length);
    return bytes;
  }

  static FileBlobStore blobs(Path root) throws IOException {
    return FileBlobStore.builder(root.resolve("blobs")).durable(false).build();
  }

  static SessionStore sessions(Path root, BlobStore blobs) throws IOException {
    return SessionStore.builder(root.resolve("sessions"), blobs).durable(false).build();
  }

  static Frame userMessage(SessionKey key, String name, String text, byte[]... pngs) {
    List<Image> images = java.util.Arrays.stream(pngs).map(b -> Images.fromBytes(b, MediaType.PNG)).toList();
    Optional<User> user = name == null ? Optional.empty() : Optional.of(new User("id-" + name, name));
    return Frame.builder("user.message").version(1).ts(T0).session(key).msgId("m1")
        .payload(new Payload.UserMessage(text, images, user, Map.of())).build();
  }

  static SessionTurn user(String text) {
    return SessionTurn.user(T0, new SessionPart.Text(text));
  }

  static SessionTurn assistant(String text) {
    return SessionTurn.assistant(T0, new SessionPart.Text(text));
  }

  static SessionTurn toolUse(String id, String text) {
    return SessionTurn.assistant(T0, new SessionPart.Text(text),
        new SessionPart.ToolUse(id, "bash", RawJson.of("{\"cmd\":\"ls\"}")));
  }

  static SessionTurn toolResult(String id, SessionPart... content) {
    return SessionTurn.user(T0, new SessionPart.ToolResult(id, List.of(content), false));
  }
}
