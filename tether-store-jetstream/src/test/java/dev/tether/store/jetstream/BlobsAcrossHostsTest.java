package dev.tether.store.jetstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.images.Images;
import dev.tether.api.blobs.BlobCorruptedException;
import dev.tether.api.blobs.BlobKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.jetstream.internal.Names;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The blob API a host's blob routes use: any host reads, checks and stores any instance's blobs. */
class BlobsAcrossHostsTest extends OneNatsServer {
  static final Pattern BLOB = Pattern.compile("\"blob\":\"([0-9a-f]{64}\\.png)\"");

  @Test
  void blobPutOnA_isReadAndFoundOnB() throws Exception {
    JetStreamTetherStore a = store();
    JetStreamTetherStore b = store();
    String vm = instance("upload");
    byte[] bytes = png(270_000, 1);
    BlobKey key = a.putBlob(vm, bytes, MediaType.PNG);
    assertEquals(BlobKey.forContent(bytes, MediaType.PNG), key);
    assertTrue(b.hasBlob(vm, key));
    assertArrayEquals(bytes, b.readBlob(vm, key));
    assertFalse(b.hasBlob(instance("other"), key), "blobs belong to their instance");
  }

  @Test
  void imageOffloadedByAnAppendOnA_isReadableByItsKeyOnB() throws Exception {
    JetStreamTetherStore a = store();
    JetStreamTetherStore b = store();
    String vm = instance("offload");
    byte[] bytes = png(270_000, 2);
    a.append(vm, Frame.of(SessionKey.host("s"), "m1", Payload.UserMessage.of("look", List.of(Images.fromBytes(bytes, MediaType.PNG)))));
    Frame stored = b.query(vm, FrameQuery.all()).frames().get(0);
    Matcher m = BLOB.matcher(new String(stored.payload().toByteArray(), StandardCharsets.UTF_8));
    assertTrue(m.find(), "the stored frame refers to the blob");
    assertArrayEquals(bytes, b.readBlob(vm, BlobKey.of(m.group(1))));
  }

  @Test
  void unknownBlob_isNoSuchFile_andReadingNeverCreatesABucket() throws Exception {
    JetStreamTetherStore b = store();
    String vm = instance("nothing");
    BlobKey key = BlobKey.forContent(png(100, 3), MediaType.PNG);
    assertThrows(NoSuchFileException.class, () -> b.readBlob(vm, key));
    assertFalse(b.hasBlob(vm, key));
    try (Connection nc = Nats.connect(server.url())) {
      String bucketStream = "OBJ_" + new Names("tether").bucket(vm);
      assertFalse(nc.jetStreamManagement().getStreamNames().contains(bucketStream), "no bucket made by reads");
    }
    b.putBlob(vm, png(100, 4), MediaType.PNG);
    assertThrows(NoSuchFileException.class, () -> b.readBlob(vm, key), "a bucket without that object");
  }

  @Test
  void putUnderAKey_verifiesTheBytesHashToIt() throws Exception {
    JetStreamTetherStore a = store();
    JetStreamTetherStore b = store();
    String vm = instance("copy");
    byte[] bytes = png(5000, 5);
    BlobKey key = BlobKey.forContent(bytes, MediaType.PNG);
    TetherException e = assertThrows(TetherException.class, () -> a.putBlob(vm, key, png(5000, 6)));
    assertEquals(ErrorCode.BLOB_CORRUPTED, e.code());
    assertEquals(key, a.putBlob(vm, key, bytes));
    assertArrayEquals(bytes, b.readBlob(vm, key));
  }

  @Test
  void objectWhoseBytesDoNotHashToItsName_isReportedCorrupt() throws Exception {
    JetStreamTetherStore a = store();
    String vm = instance("corrupt");
    a.putBlob(vm, png(100, 7), MediaType.PNG); // makes the bucket
    BlobKey key = BlobKey.forContent(png(100, 8), MediaType.PNG);
    try (Connection nc = Nats.connect(server.url())) {
      nc.objectStore(new Names("tether").bucket(vm)).put(key.fileName(), png(100, 9)); // someone else's bytes
    }
    assertThrows(BlobCorruptedException.class, () -> store().readBlob(vm, key));
  }

  @Test
  void objectLargerThanAnImageMayBe_isRefusedBeforeItIsRead() throws Exception {
    JetStreamTetherStore a = store();
    String vm = instance("huge");
    a.putBlob(vm, png(100, 10), MediaType.PNG); // makes the bucket
    BlobKey key = BlobKey.forContent(png(100, 11), MediaType.PNG);
    try (Connection nc = Nats.connect(server.url())) {
      nc.objectStore(new Names("tether").bucket(vm)).put(key.fileName(), new byte[11 << 20]); // 11 MiB under a key
    }
    BlobCorruptedException e = assertThrows(BlobCorruptedException.class, () -> store().readBlob(vm, key));
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("more than an image may be"), e.getMessage());
  }

  @Test
  void multiChunkObjectWhoseBytesDoNotHashToItsName_isReportedCorrupt() throws Exception {
    JetStreamTetherStore a = store();
    String vm = instance("corrupt-chunks");
    a.putBlob(vm, png(100, 12), MediaType.PNG); // makes the bucket
    BlobKey key = BlobKey.forContent(png(400_000, 13), MediaType.PNG);
    try (Connection nc = Nats.connect(server.url())) {
      nc.objectStore(new Names("tether").bucket(vm)).put(key.fileName(), png(400_000, 14)); // 4 chunks, other bytes
    }
    assertThrows(BlobCorruptedException.class, () -> store().readBlob(vm, key));
  }

  @Test
  void blobRead_looksTheObjectUpOnce_andReadsEveryChunk() throws Exception {
    JetStreamTetherStore a = store();
    JetStreamTetherStore b = store();
    String vm = instance("one-lookup");
    byte[] bytes = png(700_000, 15); // 6 chunks of 128 KiB
    BlobKey key = a.putBlob(vm, bytes, MediaType.PNG);
    b.hasBlob(vm, key); // the bucket handle exists before counting
    List<String> lookups = new CopyOnWriteArrayList<>();
    try (Connection spy = Nats.connect(server.url())) {
      // Every JetStream API request of the account passes this subject; an object's info is the
      // last message on its meta subject ($O.<bucket>.M.<name>).
      spy.createDispatcher(m -> {
        String body = m.getData() == null ? "" : new String(m.getData(), StandardCharsets.UTF_8);
        if ((m.getSubject() + " " + body).contains(".M.")) { // DIRECT.GET names it in the subject, MSG.GET in the body
          lookups.add(m.getSubject() + " " + body);
        }
      }).subscribe("$JS.API.>");
      spy.flush(Duration.ofSeconds(5));
      assertArrayEquals(bytes, b.readBlob(vm, key));
      spy.flush(Duration.ofSeconds(5));
    }
    assertEquals(1, lookups.size(), "info lookups of one read: " + lookups);
  }
}
