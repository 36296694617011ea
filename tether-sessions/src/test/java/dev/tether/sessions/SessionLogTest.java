package dev.tether.sessions;

import dev.tether.api.blobs.BlobStore;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobGcResult;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionLogTest {
  @TempDir Path root;

  private SessionStore reopen(SessionStore old, FileBlobStore blobs) throws IOException {
    old.close();
    return Fixtures.sessions(root, blobs);
  }

  @Test
  void append_thenReopen_loadsTheSameTurnsInOrder() throws IOException {
    FileBlobStore blobs = Fixtures.blobs(root);
    SessionStore store = Fixtures.sessions(root, blobs);
    SessionLog log = store.open(SessionKey.host("default"));
    List<SessionTurn> turns = List.of(Fixtures.user("hi"), Fixtures.toolUse("t1", "looking"),
        Fixtures.toolResult("t1", new SessionPart.Text("ok")), Fixtures.assistant("done"));
    for (SessionTurn turn : turns) {
      log.append(turn);
    }
    assertEquals(turns, log.turns());
    store = reopen(store, blobs);
    SessionLog again = store.open(SessionKey.host("default"));
    assertEquals(turns, again.turns());
    assertEquals(0, again.skippedLines());
  }

  @Test
  void open_sameKeyTwice_returnsTheSameLog() throws IOException {
    try (SessionStore store = Fixtures.sessions(root, Fixtures.blobs(root))) {
      assertTrue(store.open(SessionKey.host("a")) == store.open(new SessionKey("host", "a")));
    }
  }

  @Test
  void sessions_withTheSameIdOnDifferentChannels_areIndependent() throws IOException {
    FileBlobStore blobs = Fixtures.blobs(root);
    SessionStore store = Fixtures.sessions(root, blobs);
    store.open(SessionKey.host("12345")).append(Fixtures.user("from host"));
    store.open(new SessionKey("telegram", "12345")).append(Fixtures.user("from telegram"));
    store.open(new SessionKey("host:12345", "")).append(Fixtures.user("joined-string lookalike"));
    store = reopen(store, blobs);
    assertEquals(List.of(Fixtures.user("from host")), store.open(SessionKey.host("12345")).turns());
    assertEquals(List.of(Fixtures.user("from telegram")), store.open(new SessionKey("telegram", "12345")).turns());
    assertEquals(List.of(Fixtures.user("joined-string lookalike")), store.open(new SessionKey("host:12345", "")).turns());
    try (var files = Files.list(store.directory())) {
      assertEquals(3, files.count());
    }
  }

  @Test
  void ingest_storesImagesAsBlobRefsAndAttributesTheText() throws IOException {
    FileBlobStore blobs = Fixtures.blobs(root);
    SessionStore store = Fixtures.sessions(root, blobs);
    SessionKey key = new SessionKey("telegram", "42");
    byte[] png = Fixtures.png(10_000_000, 1);
    SessionLog log = store.open(key);
    long before = Files.size(store.file(key));

    SessionTurn turn = log.ingest(Fixtures.userMessage(key, "Alice", "Analyze this chart", png));

    BlobKey blob = BlobKey.forContent(png, MediaType.PNG);
    assertEquals(new SessionTurn(Role.USER, Fixtures.T0, Optional.of("Alice"), List.of(
        new SessionPart.Text("[Alice]: Analyze this chart"), new SessionPart.ImageRef(blob, png.length))), turn);
    assertArrayEquals(png, blobs.get(blob));
    long added = Files.size(store.file(key)) - before;
    assertTrue(added < 1024, "a 10 MB image adds " + added + " bytes to the session file");
    assertEquals(List.of(turn), reopen(store, blobs).open(key).turns());
  }

  @Test
  void ingest_sameImageTwice_storesOneBlob() throws IOException {
    FileBlobStore blobs = Fixtures.blobs(root);
    try (SessionStore store = Fixtures.sessions(root, blobs)) {
      byte[] png = Fixtures.png(1000, 2);
      store.open(SessionKey.host("a")).ingest(Fixtures.userMessage(SessionKey.host("a"), "Bob", "one", png));
      store.open(SessionKey.host("b")).ingest(Fixtures.userMessage(SessionKey.host("b"), "Bob", "two", png));
      assertEquals(List.of(BlobKey.forContent(png, MediaType.PNG)), blobs.keys());
    }
  }

  @Test
  void ingest_withoutUser_keepsTheTextAsIs() throws IOException {
    try (SessionStore store = Fixtures.sessions(root, Fixtures.blobs(root))) {
      SessionTurn turn = store.open(SessionKey.host("a")).ingest(Fixtures.userMessage(SessionKey.host("a"), null, "plain"));
      assertEquals(new SessionTurn(Role.USER, Fixtures.T0, Optional.empty(), List.of(new SessionPart.Text("plain"))), turn);
    }
  }

  @Test
  void ingest_invalidFrame_isRejectedAndStoresNothing() throws IOException {
    FileBlobStore blobs = Fixtures.blobs(root);
    try (SessionStore store = Fixtures.sessions(root, blobs)) {
      SessionKey key = SessionKey.host("a");
      SessionLog log = store.open(key);
      String jpegAsPng = "{\"text\":\"x\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"/9j/4AAQSkZJRgABAQ==\"}]}";
      Frame bad = Frame.builder("user.message").session(key).payload(RawJson.of(jpegAsPng)).build();
      TetherException e = assertThrows(TetherException.class, () -> log.ingest(bad));
      assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, e.code());
      Frame noText = Frame.builder("user.message").session(key).payload(RawJson.of("{\"images\":[]}")).build();
      assertEquals(ErrorCode.MALFORMED_FRAME, assertThrows(TetherException.class, () -> log.ingest(noText)).code());
      assertEquals(0, log.size());
      assertEquals(List.of(), blobs.keys());
    }
  }

  @Test
  void ingest_frameOfAnotherTypeOrSession_isACallerMistake() throws IOException {
    try (SessionStore store = Fixtures.sessions(root, Fixtures.blobs(root))) {
      SessionLog log = store.open(SessionKey.host("a"));
      Frame done = Frame.of(SessionKey.host("a"), "m", Payload.AssistantDone.of("x", List.of()));
      assertThrows(IllegalArgumentException.class, () -> log.ingest(done));
      Frame other = Fixtures.userMessage(new SessionKey("telegram", "a"), "A", "x");
      assertThrows(IllegalArgumentException.class, () -> log.ingest(other));
      assertEquals(0, log.size());
    }
  }

  @Test
  void load_skipsMalformedOverLongAndTornLinesAndKeepsEveryOtherTurn() throws IOException {
    FileBlobStore blobs = Fixtures.blobs(root);
    SessionKey key = SessionKey.host("a");
    Path file;
    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).durable(false).maxLineBytes(1024).build()) {
      file = store.file(key);
      SessionLog log = store.open(key);
      log.append(Fixtures.user("one"));
      Files.writeString(file, "not json\n" + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\""
          + "x".repeat(5000) + "\"}]}\n\n", StandardOpenOption.APPEND);
      Files.write(file, SessionLineCodec.write(Fixtures.assistant("two")), StandardOpenOption.APPEND);
      Files.writeString(file, "\n{\"role\":\"user\",\"content\":[{\"type\":\"te", StandardOpenOption.APPEND);
    }
    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).durable(false).maxLineBytes(1024).build()) {
      SessionLog log = store.open(key);
      assertEquals(List.of(Fixtures.user("one"), Fixtures.assistant("two")), log.turns());
      assertEquals(3, log.skippedLines());
      log.append(Fixtures.user("three")); // the torn tail was cut, so this starts on its own line
    }
    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).durable(false).maxLineBytes(1024).build()) {
      SessionLog log = store.open(key);
      assertEquals(List.of(Fixtures.user("one"), Fixtures.assistant("two"), Fixtures.user("three")), log.turns());
      assertEquals(2, log.skippedLines());
    }
    assertTrue(Files.readString(file, StandardCharsets.UTF_8).endsWith("\"three\"}]}\n"));
  }

  @Test
  void append_turnLongerThanTheLineLimit_isRejectedAndNotWritten() throws IOException {
    try (SessionStore store = SessionStore.builder(root.resolve("s"), Fixtures.blobs(root)).maxLineBytes(100).build()) {
      SessionLog log = store.open(SessionKey.host("a"));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> log.append(Fixtures.user("y".repeat(200))));
      assertTrue(e.getMessage().contains("at most 100"), e.getMessage());
      assertEquals(0, log.size());
      assertEquals(0, Files.size(store.file(SessionKey.host("a"))));
    }
  }

  @Test
  void open_afterTheLogWasClosed_loadsItAfresh() throws IOException {
    try (SessionStore store = Fixtures.sessions(root, Fixtures.blobs(root))) {
      SessionLog first = store.open(SessionKey.host("a"));
      first.append(Fixtures.user("one"));
      first.close();
      SessionLog second = store.open(SessionKey.host("a"));
      assertTrue(first != second);
      second.append(Fixtures.user("two"));
      assertEquals(List.of(Fixtures.user("one"), Fixtures.user("two")), second.turns());
    }
  }

  @Test
  void append_afterClose_isRejected() throws IOException {
    SessionStore store = Fixtures.sessions(root, Fixtures.blobs(root));
    SessionLog log = store.open(SessionKey.host("a"));
    store.close();
    assertThrows(IllegalStateException.class, () -> log.append(Fixtures.user("late")));
    assertThrows(IllegalStateException.class, () -> store.open(SessionKey.host("a")));
  }

  @Test
  void builder_rejectsImpossibleSettings() {
    SessionStore.Builder builder = SessionStore.builder(root, new NoBlobs());
    assertEquals("maxLineBytes must be >= 64 but was 0",
        assertThrows(IllegalArgumentException.class, () -> builder.maxLineBytes(0)).getMessage());
    assertEquals("imageCost must be >= 0 but was -1",
        assertThrows(IllegalArgumentException.class, () -> builder.imageCost(-1)).getMessage());
  }

  /** A blob store that must never be touched. */
  static final class NoBlobs implements dev.tether.api.blobs.BlobStore {
    @Override public BlobKey put(byte[] bytes, MediaType mediaType) { throw new AssertionError(); }
    @Override public BlobKey put(java.io.InputStream in, MediaType mediaType) { throw new AssertionError(); }
    @Override public byte[] get(BlobKey key) { throw new AssertionError(); }
    @Override public java.io.InputStream open(BlobKey key) { throw new AssertionError(); }
    @Override public boolean exists(BlobKey key) { throw new AssertionError(); }
    @Override public boolean delete(BlobKey key) { throw new AssertionError(); }
    @Override public dev.tether.api.blobs.BlobGcResult collectGarbage(java.util.function.Predicate<BlobKey> r, java.time.Duration g) {
      throw new AssertionError();
    }
  }
}
