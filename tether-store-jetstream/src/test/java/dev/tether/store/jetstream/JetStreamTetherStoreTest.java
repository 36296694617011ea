package dev.tether.store.jetstream;

import dev.tether.store.jetstream.testing.NatsServer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.blobs.BlobKey;
import dev.tether.images.Images;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.jetstream.internal.Appender;
import dev.tether.store.jetstream.internal.Names;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the contract does not cover: images, dedup, sizes, a second host, an unreachable server. */
class JetStreamTetherStoreTest extends OneNatsServer {
  static final SessionKey A = SessionKey.host("a");
  static Frame text(String text) {
    return Frame.builder("assistant.message").version(1).session(A).payload(RawJson.of("{\"text\":\"" + text + "\"}")).build();
  }

  @Test
  void fourFiveMebibyteImages_goToTheObjectStore_andComeBackInlineOnAnotherHost() throws Exception {
    JetStreamTetherStore hostA = store();
    JetStreamTetherStore hostB = store();
    String vm = instance("images");
    List<byte[]> pngs = new ArrayList<>();
    List<Image> images = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      pngs.add(png(5 << 20, i));
      images.add(Images.fromBytes(pngs.get(i), MediaType.PNG));
    }
    Frame sent = Frame.of(A, "m-img", Payload.UserMessage.of("four pictures", images));
    long seq = hostA.append(vm, sent);

    Frame stored = hostB.query(vm, FrameQuery.all()).frames().get(0);
    assertEquals(seq, stored.seq());
    assertTrue(stored.payload().size() < 4096, "the stored frame holds refs, not bytes: " + stored.payload().size());
    String json = new String(stored.payload().toByteArray(), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"blob\":\"" + BlobKey.forContent(pngs.get(2), MediaType.PNG).fileName() + "\""), json);

    Frame inline = hostB.inlineImages(vm, stored);
    List<Image> back = inline.payloadView().images();
    assertEquals(4, back.size());
    for (int i = 0; i < 4; i++) {
      assertArrayEquals(pngs.get(i), Base64.getDecoder().decode(back.get(i).data()));
    }
    assertEquals("four pictures", ((Payload.UserMessage) inline.payloadView()).text());
    assertTrue(hostB.blobStore(vm).exists(BlobKey.forContent(pngs.get(0), MediaType.PNG)));
  }

  @Test
  void smallImageFrame_staysInline() throws Exception {
    JetStreamTetherStore s = store();
    String vm = instance("small");
    Frame sent = Frame.of(A, "m", Payload.UserMessage.of("tiny", List.of(Images.fromBytes(png(100, 7), MediaType.PNG))));
    s.append(vm, sent);
    assertEquals(sent.withSeq(1), s.query(vm, FrameQuery.all()).frames().get(0));
  }

  @Test
  void objectStoreBlobStore_rejectsBadImagesAndVerifiesReads() throws Exception {
    JetStreamTetherStore s = store();
    ObjectStoreBlobStore blobs = s.blobStore(instance("blobs"));
    TetherException e = assertThrows(TetherException.class, () -> blobs.put(png(100, 1), MediaType.JPEG));
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, e.code());
    byte[] bytes = png(300_000, 2);
    BlobKey key = blobs.put(bytes, MediaType.PNG);
    assertEquals(key, blobs.put(bytes, MediaType.PNG), "the same bytes are one object");
    assertArrayEquals(bytes, blobs.get(key));
    assertTrue(blobs.delete(key));
    assertFalse(blobs.exists(key));
    assertThrows(java.nio.file.NoSuchFileException.class, () -> blobs.get(key));
  }

  @Test
  void frameOverMaxPayloadWithoutImages_isRejectedWithFrameTooLarge() throws Exception {
    JetStreamTetherStore s = store();
    TetherException e = assertThrows(TetherException.class, () -> s.append(instance("big"), text("x".repeat(2 << 20))));
    assertEquals(ErrorCode.FRAME_TOO_LARGE, e.code());
    assertTrue(e.getMessage().contains("max_payload"), e.getMessage());
  }

  @Test
  void publishRetriedWithTheSameMsgId_isStoredOnce() throws Exception {
    JetStreamTetherStore s = store();
    String vm = instance("dedup");
    s.append(vm, text("creates the stream"));
    Names names = new Names("tether");
    ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor();
    try (Connection nc = Nats.connect(server.url())) {
      Appender appender = new Appender(nc.jetStream(), retries, Duration.ofSeconds(2));
      byte[] body = dev.tether.api.FrameCodec.standard().write(text("once"));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      long first = appender.publish(names.stream(vm), names.subject(vm, A), body, "retry-me", deadline).get(30, TimeUnit.SECONDS);
      long again = appender.publish(names.stream(vm), names.subject(vm, A), body, "retry-me", deadline).get(30, TimeUnit.SECONDS);
      assertEquals(first, again);
    } finally {
      retries.shutdownNow();
    }
    assertEquals(2, s.query(vm, FrameQuery.all()).frames().size());
    assertEquals(2, s.lastSeq(vm));
  }

  @Test
  void appendOnOneHost_isSeenByAQueryOnAnotherAtOnce_andWakesItsWait() throws Exception {
    JetStreamTetherStore hostA = store();
    JetStreamTetherStore hostB = store();
    String vm = instance("two-hosts");
    hostB.append(vm, text("opens the instance on B"));
    CompletableFuture<QueryResult> wait = hostB.waitForFrames(vm, FrameQuery.session(A, 1), Duration.ofSeconds(60));
    for (int i = 0; i < 20; i++) {
      long seq = hostA.append(vm, text("n" + i));
      assertEquals(seq, hostB.query(vm, FrameQuery.session(A, seq - 1)).frames().get(0).seq(), "read after write across hosts");
    }
    assertEquals(2, wait.get(60, TimeUnit.SECONDS).frames().get(0).seq());
  }

  @Test
  void viewWhoseConsumerVanished_catchesUpBeforeAnswering_neverServesLessThanAcknowledged() throws Exception {
    JetStreamTetherStore hostA = store();
    JetStreamTetherStore hostB = store();
    String vm = instance("vanished");
    hostA.append(vm, text("one"));
    assertEquals(1, hostB.query(vm, FrameQuery.all()).frames().size());
    try (Connection nc = Nats.connect(server.url())) {
      // What a node failure does to an R1 consumer: it is gone, and nobody told the subscriber.
      var jsm = nc.jetStreamManagement();
      String stream = new Names("tether").stream(vm);
      for (String consumer : jsm.getConsumerNames(stream)) {
        jsm.deleteConsumer(stream, consumer);
      }
    }
    long two = hostA.append(vm, text("two"));
    long three = hostB.append(vm, text("three"));
    for (JetStreamTetherStore host : List.of(hostA, hostB)) {
      assertEquals(List.of(1L, two, three), host.query(vm, FrameQuery.all()).frames().stream().map(Frame::seq).toList(),
          "read-your-writes and read-others'-writes after the consumer vanished");
    }
    CompletableFuture<QueryResult> wait = hostB.waitForFrames(vm, FrameQuery.session(A, three), Duration.ofSeconds(30));
    long four = hostA.append(vm, text("four"));
    assertEquals(four, wait.get(30, TimeUnit.SECONDS).frames().get(0).seq(), "the new consumer wakes waits");
  }

  @Test
  void viewsNobodyUses_areReleased_butWaitsKeepTheirs_andAppendsNeedNone() throws Exception {
    JetStreamTetherStore writer = JetStreamTetherStore.builder().servers(server.url()).idleTimeout(Duration.ofMillis(300)).connect();
    closeAfter.add(writer);
    JetStreamTetherStore reader = JetStreamTetherStore.builder().servers(server.url()).idleTimeout(Duration.ofMillis(300)).connect();
    closeAfter.add(reader);
    String idle = instance("idle");
    String waited = instance("waited");
    writer.append(idle, text("one"));
    writer.append(waited, text("one"));
    assertEquals(0, writer.openViews(), "a host that only appends holds no consumer");
    assertEquals(1, reader.query(idle, FrameQuery.all()).frames().size());
    CompletableFuture<QueryResult> wait = reader.waitForFrames(waited, FrameQuery.session(A, 1), Duration.ofSeconds(60));
    assertEquals(2, reader.openViews());
    Thread.sleep(2000);
    assertEquals(1, reader.openViews(), "the idle view went, the waited one stayed");
    assertTrue(reader.releasedViews() >= 1);
    long two = writer.append(waited, text("two"));
    assertEquals(two, wait.get(30, TimeUnit.SECONDS).frames().get(0).seq());
    long idleTwo = writer.append(idle, text("two"));
    assertEquals(List.of(1L, idleTwo), reader.query(idle, FrameQuery.all()).frames().stream().map(Frame::seq).toList(),
        "a released view is made again from the stream on the next read");
  }

  @Test
  void maxViews_releasesTheLeastRecentlyUsed_andRefusesWhenAllHaveWaits() throws Exception {
    JetStreamTetherStore writer = store();
    JetStreamTetherStore reader = JetStreamTetherStore.builder().servers(server.url()).maxViews(2).connect();
    closeAfter.add(reader);
    List<String> vms = List.of(instance("v1"), instance("v2"), instance("v3"));
    for (String vm : vms) {
      writer.append(vm, text("one"));
    }
    for (String vm : vms) {
      assertEquals(1, reader.query(vm, FrameQuery.all()).frames().size());
    }
    assertEquals(2, reader.openViews());
    assertEquals(1, reader.releasedViews(), "the least recently used view made room");
    CompletableFuture<QueryResult> w2 = reader.waitForFrames(vms.get(1), FrameQuery.session(A, 1), Duration.ofSeconds(60));
    CompletableFuture<QueryResult> w3 = reader.waitForFrames(vms.get(2), FrameQuery.session(A, 1), Duration.ofSeconds(60));
    TetherException full = assertThrows(TetherException.class, () -> reader.query(vms.get(0), FrameQuery.all()));
    assertEquals(ErrorCode.TOO_MANY_INSTANCES, full.code());
    writer.append(vms.get(1), text("two"));
    assertEquals(1, w2.get(30, TimeUnit.SECONDS).frames().size());
    assertEquals(1, reader.query(vms.get(0), FrameQuery.all()).frames().size(), "room again once a wait ended");
    w3.cancel(true);
  }

  @Test
  void serverDown_appendFailsWithinItsTimeoutInsteadOfHanging() throws Exception {
    NatsServer own = NatsServer.single(dir.resolve("own-" + System.nanoTime()));
    try {
      JetStreamTetherStore s = JetStreamTetherStore.builder().servers(own.url()).appendTimeout(Duration.ofSeconds(2)).connect();
      closeAfter.add(s);
      String vm = instance("down");
      s.append(vm, text("ok"));
      assertEquals(1, s.query(vm, FrameQuery.all()).frames().size()); // a read makes this host's view
      own.kill();
      long start = System.nanoTime();
      StoreUnavailableException e = assertThrows(StoreUnavailableException.class, () -> s.append(vm, text("lost")));
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(tookMs < 15_000, "gave up after " + tookMs + " ms");
      assertTrue(e.getMessage().contains("Retry later"), e.getMessage());
      assertEquals(1, s.query(vm, FrameQuery.all()).frames().size(),
          "reads fall back to a local view that holds every frame this host acknowledged");
      assertThrows(StoreUnavailableException.class, () -> s.query(instance("never-read"), FrameQuery.all()),
          "an instance without a view cannot be answered: unavailable, not empty");
    } finally {
      own.close();
    }
  }

  @Test
  void foreignMessageOnTheStream_isSkippedButItsSeqCounts() throws Exception {
    JetStreamTetherStore s = store();
    JetStreamTetherStore other = store();
    String vm = instance("foreign");
    s.append(vm, text("first"));
    try (Connection nc = Nats.connect(server.url())) {
      // Someone else's publisher writes garbage on the instance's subjects.
      nc.jetStream().publish(new Names("tether").subject(vm, A), "not a frame".getBytes(StandardCharsets.UTF_8));
    }
    long third = s.append(vm, text("third"));
    assertEquals(3, third);
    for (JetStreamTetherStore host : List.of(s, other)) {
      QueryResult r = host.query(vm, FrameQuery.all());
      assertEquals(List.of(1L, 3L), r.frames().stream().map(Frame::seq).toList());
      assertEquals(3, r.nextSeq());
    }
  }

  @Test
  void removeOnOneHost_endsTheOtherHostsWaitsAndItsSeqsContinue() throws Exception {
    JetStreamTetherStore hostA = store();
    JetStreamTetherStore hostB = store();
    String vm = instance("remove");
    hostA.append(vm, text("one"));
    hostA.append(vm, text("two"));
    assertEquals(2, hostB.query(vm, FrameQuery.all()).frames().size());
    CompletableFuture<QueryResult> waiting = hostB.waitForFrames(vm, FrameQuery.session(A, 2), Duration.ofMinutes(2));
    assertTrue(hostA.remove(vm));
    assertThrows(java.util.concurrent.CancellationException.class, () -> waiting.get(30, TimeUnit.SECONDS));
    assertTrue(hostB.query(vm, FrameQuery.all()).frames().isEmpty(), "B reopens its view on the purged stream");
    assertEquals(2, hostB.lastSeq(vm));
    assertEquals(3, hostB.append(vm, text("three")));
    assertEquals(List.of(3L), hostA.query(vm, FrameQuery.all()).frames().stream().map(Frame::seq).toList());
  }

  @Test
  void builder_failsFastNamingTheSetting() {
    var b = JetStreamTetherStore.builder();
    assertEquals("replicas must be 1..5 but was 0",
        assertThrows(IllegalArgumentException.class, () -> b.replicas(0)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> b.appendTimeout(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> b.subjectPrefix("a.b"));
    assertThrows(IllegalStateException.class, b::connect);
  }
}
