package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * The child JVM of {@link SessionCrashTest}: appends turns to three sessions forever, putting a
 * fresh blob for every other turn (and now and then one no turn refers to), and prints
 * {@code ACK <session> <turn> <blob|->} after each append returns. It is killed at a random moment.
 */
public final class SessionCrashChild {
  static final List<SessionKey> KEYS = List.of(
      SessionKey.host("default"), new SessionKey("telegram", "12345"), SessionKey.host("12345"));

  private SessionCrashChild() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    Random random = new Random(seed);
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    FileBlobStore blobs = FileBlobStore.open(root.resolve("blobs"));
    SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).build();
    for (long i = 0; ; i++) {
      int s = (int) (i % KEYS.size());
      SessionLog log = store.open(KEYS.get(s));
      int n = log.size();
      String text = text(s, n);
      SessionTurn turn;
      BlobKey blob = null;
      if (random.nextInt(4) == 0) {
        blobs.put(Fixtures.png(1 + random.nextInt(100_000) + 8, random.nextLong()), MediaType.PNG); // unreferenced
      }
      if (n % 2 == 0) {
        byte[] png = Fixtures.png(8 + random.nextInt(300_000), random.nextLong());
        blob = blobs.put(png, MediaType.PNG);
        turn = SessionTurn.user(Fixtures.T0, new SessionPart.Text(text), new SessionPart.ImageRef(blob, png.length));
      } else {
        turn = n % 3 == 0 ? Fixtures.assistant(text) : SessionTurn.assistant(Fixtures.T0, new SessionPart.Text(text + "x".repeat(random.nextInt(20_000))));
      }
      log.append(turn);
      out.println("ACK " + s + " " + n + " " + (blob == null ? "-" : blob));
      out.flush();
    }
  }

  static String text(int session, int n) {
    return "turn " + session + "#" + n;
  }
}
