package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Conversation;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.Role;
import dev.tether.api.SessionKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tether-image-support.md §9, integration cases 7 and 8, with real files and a real restart (new instances). */
class SessionSpecCasesTest {
  private static final SessionKey KEY = new SessionKey("telegram", "12345");
  @TempDir Path root;

  private BlobKey sendImageMessageThenStop(byte[] png) throws Exception {
    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), FileBlobStore.open(root.resolve("blobs"))).build()) {
      SessionLog log = store.open(KEY);
      log.ingest(Fixtures.userMessage(KEY, "Alice", "Analyze this chart", png));
      log.append(Fixtures.assistant("It shows growth."));
    }
    return BlobKey.forContent(png, MediaType.PNG);
  }

  @Test
  void case7_sessionWithBlobRefs_reloadsAfterRestartAndContextCarriesTheImage() throws Exception {
    byte[] png = Fixtures.png(200_000, 7);
    BlobKey blob = sendImageMessageThenStop(png);

    FileBlobStore blobs = FileBlobStore.open(root.resolve("blobs"));
    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).build()) {
      SessionLog log = store.open(KEY);
      assertEquals(2, log.size());
      assertTrue(Files.isRegularFile(blobs.path(blob)), "blob file exists");
      Conversation context = log.assembleContext("You are helpful.", 20, 50_000);
      assertEquals("You are helpful.", context.systemPrompt());
      assertEquals(Role.USER, context.turns().get(0).role());
      assertEquals(new Part.Text("[Alice]: Analyze this chart"), context.turns().get(0).parts().get(0));
      Part.Image image = (Part.Image) context.turns().get(0).parts().get(1);
      assertEquals(MediaType.PNG, image.mediaType());
      assertArrayEquals(png, image.data().toByteArray());
      assertEquals(List.of(image), context.images());
      assertEquals("It shows growth.", context.turns().get(1).text());
    }
  }

  @Test
  void case8_deletedBlob_turnIsAssembledTextOnlyWithoutCrashing() throws Exception {
    BlobKey blob = sendImageMessageThenStop(Fixtures.png(5_000, 8));
    FileBlobStore blobs = FileBlobStore.open(root.resolve("blobs"));
    Files.delete(blobs.path(blob));

    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).build()) {
      SessionLog log = store.open(KEY);
      assertEquals(2, log.size());
      Conversation context = log.assembleContext("", 20, 50_000);
      assertEquals(List.of(new Part.Text("[Alice]: Analyze this chart")), context.turns().get(0).parts());
      assertEquals(List.of(), context.images());
      assertEquals(2, context.turns().size());
    }
  }

  @Test
  void collectGarbage_keepsBlobsSessionsReferenceAndDeletesOldOrphans() throws Exception {
    byte[] referenced = Fixtures.png(1_000, 9);
    BlobKey kept = sendImageMessageThenStop(referenced);
    FileBlobStore blobs = FileBlobStore.open(root.resolve("blobs"));
    BlobKey orphan = blobs.put(Fixtures.png(1_000, 10), MediaType.PNG);
    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).build()) {
      assertEquals(0, store.collectGarbage(java.time.Duration.ofHours(1)).deletedBlobs(), "young orphans survive the grace period");
      Files.setLastModifiedTime(blobs.path(orphan), java.nio.file.attribute.FileTime.fromMillis(0));
      Files.setLastModifiedTime(blobs.path(kept), java.nio.file.attribute.FileTime.fromMillis(0));
      assertEquals(1, store.collectGarbage(java.time.Duration.ofHours(1)).deletedBlobs());
      assertEquals(List.of(kept), blobs.keys());
    }
  }
}
