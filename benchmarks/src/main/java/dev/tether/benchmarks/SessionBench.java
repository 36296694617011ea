package dev.tether.benchmarks;

import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.blobs.BlobKey;
import dev.tether.sessions.FileBlobStore;
import dev.tether.sessions.SessionLog;
import dev.tether.sessions.SessionPart;
import dev.tether.sessions.SessionStore;
import dev.tether.sessions.SessionTurn;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Builds a realistic session: user turns with attribution, assistant replies, a tool use and its
 * result now and then, and an image ref on every fifth turn (so 10,000 turns hold 2,000 refs).
 */
final class SessionBench {
  static final SessionKey KEY = new SessionKey("telegram", "12345");
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private SessionBench() {}

  static FileBlobStore blobs(Path root) throws IOException {
    return FileBlobStore.builder(root.resolve("blobs")).durable(false).build();
  }

  static SessionStore store(Path root, FileBlobStore blobs) throws IOException {
    return SessionStore.builder(root.resolve("sessions"), blobs).durable(false).build();
  }

  /** Writes {@code turns} turns; images are real 1 KiB blobs when {@code realBlobs}, else refs to absent blobs. */
  static void write(Path root, int turns, boolean realBlobs) throws IOException {
    FileBlobStore blobs = blobs(root);
    try (SessionStore store = store(root, blobs)) {
      SessionLog log = store.open(KEY);
      String reply = "Here is what I found about that: the numbers went up in the third quarter and down after.";
      for (int i = 0; i < turns; i++) {
        Instant ts = T0.plusSeconds(i);
        SessionTurn turn;
        if (i % 5 == 0) {
          byte[] png = BenchFiles.png(1024, i);
          BlobKey key = realBlobs ? blobs.put(png, MediaType.PNG) : BlobKey.forContent(png, MediaType.PNG);
          turn = new SessionTurn(dev.tether.api.Role.USER, ts, Optional.of("Alice"), java.util.List.of(
              new SessionPart.Text("[Alice]: what does this chart show? #" + i), new SessionPart.ImageRef(key, png.length)));
        } else if (i % 10 == 1) {
          turn = SessionTurn.assistant(ts, new SessionPart.Text("Let me check."),
              new SessionPart.ToolUse("tu" + i, "bash", RawJson.of("{\"cmd\":\"ls -la /workspace\"}")));
        } else if (i % 10 == 2) {
          turn = SessionTurn.user(ts, new SessionPart.ToolResult("tu" + (i - 1),
              java.util.List.of(new SessionPart.Text("total 8\ndrwxr-xr-x 2 root root 4096 .\n")), false));
        } else if (i % 2 == 1) {
          turn = SessionTurn.assistant(ts, new SessionPart.Text(reply + " #" + i));
        } else {
          turn = new SessionTurn(dev.tether.api.Role.USER, ts, Optional.of("Bob"),
              java.util.List.of(new SessionPart.Text("[Bob]: and what about the next one? #" + i)));
        }
        log.append(turn);
      }
    }
  }
}
