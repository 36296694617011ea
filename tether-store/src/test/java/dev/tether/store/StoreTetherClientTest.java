package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.ImageRefs;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.testing.MemoryBlobStore;
import dev.tether.api.testing.TestImages;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The in-process client over a real {@link MemoryTetherStore}, answering as serve's HTTP API does. */
class StoreTetherClientTest {
  private static final String VM = "vm1";
  private static final SessionKey SESSION = SessionKey.host("s");

  private final MemoryTetherStore store = MemoryTetherStore.create();
  private final StoreTetherClient client = StoreTetherClient.builder(store).knownInstances(Set.of(VM)::contains).build();

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void send_appendsTheFrameAndReportsItsSeq() throws Exception {
    store.append(VM, Frames.presence(SESSION, "x", "idle"));
    Frame message = Frames.hostUserMessage("s", "hello", List.of());

    SendReceipt receipt = client.send(VM, message).get();

    assertEquals(new SendReceipt(message.msgId().orElseThrow(), "s", 2), receipt);
    assertEquals(message.withSeq(2), store.retained(VM).get(1));
  }

  @Test
  void send_withoutMsgIdOrSession_getsAHostIdAndTheDefaultSession_asOverHttp() throws Exception {
    Frame bare = Frames.hostUserMessage("s", "hello", List.of()).toBuilder().msgId(null).session(null).build();

    SendReceipt receipt = client.send(VM, bare).get();

    Frame stored = store.retained(VM).get(0);
    assertEquals(receipt.msgId(), stored.msgId().orElseThrow());
    assertEquals(SessionKey.host(SessionKey.DEFAULT_ID), stored.session().orElseThrow());
    assertEquals("default", receipt.sessionId());
  }

  @Test
  void send_ofAnImageThatIsNotWhatItSays_isRefusedWithItsCode_andNothingIsStored() {
    Image fake = new Image(MediaType.PNG, Base64.getEncoder().encodeToString("not a png at all".getBytes()));
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> client.send(VM, Frames.hostUserMessage("s", "look", List.of(fake))).get());
    assertInstanceOf(TetherException.class, e.getCause());
    assertEquals(0, store.lastSeq(VM));
  }

  @Test
  void unknownInstance_failsBothCallsWithoutTouchingTheStore() {
    ExecutionException send = assertThrows(ExecutionException.class,
        () -> client.send("vm2", Frames.hostUserMessage("s", "hi", List.of())).get());
    TetherException unknown = assertInstanceOf(TetherException.class, send.getCause());
    assertEquals(ErrorCode.INSTANCE_NOT_FOUND, unknown.code());
    assertTrue(unknown.getMessage().contains("'vm2'"), unknown.getMessage());
    ExecutionException poll = assertThrows(ExecutionException.class,
        () -> client.poll("vm2", PollRequest.channel("host", 0, 0)).get());
    assertEquals(ErrorCode.INSTANCE_NOT_FOUND, assertInstanceOf(TetherException.class, poll.getCause()).code());
    assertEquals(0, store.lastSeq("vm2"));
  }

  @Test
  void poll_nullChannelAndSession_meanAny() throws Exception {
    store.append(VM, Frames.assistantDone(SESSION, "a", "host s", List.of()));
    store.append(VM, Frames.assistantDone(SessionKey.host("t"), "b", "host t", List.of()));
    store.append(VM, Frames.assistantDone(new SessionKey("telegram", "42"), "c", "telegram", List.of()));

    FramePage any = client.poll(VM, new PollRequest(null, null, 0, 50, 0, Set.of(), null)).get();
    FramePage hostAnySession = client.poll(VM, new PollRequest("host", null, 0, 50, 0, Set.of(), null)).get();
    FramePage one = client.poll(VM, new PollRequest("host", "t", 0, 50, 0, Set.of(), null)).get();

    assertEquals(List.of(1L, 2L, 3L), seqs(any));
    assertEquals(List.of(1L, 2L), seqs(hostAnySession));
    assertEquals(List.of(2L), seqs(one));
    assertEquals(3, any.nextSeq());
  }

  @Test
  void poll_filtersByTypeReplyAndLimit_andPagesWithNextSeq() throws Exception {
    store.append(VM, Frames.assistantDone(SESSION, "a", "for a", List.of()));
    store.append(VM, Frames.assistantDelta(SESSION, "b", "partial b"));
    long first = store.append(VM, Frames.assistantDone(SESSION, "b", "for b", List.of()));
    long second = store.append(VM, Frames.assistantDone(SESSION, "b", "for b again", List.of()));

    FramePage page = client.poll(VM, new PollRequest("host", "s", 0, 1, 0, Set.of("assistant.done"), "b")).get();
    FramePage next = client.poll(VM, new PollRequest("host", "s", page.nextSeq(), 1, 0, Set.of("assistant.done"), "b")).get();

    assertEquals(List.of(first), seqs(page));
    assertEquals("for b", ((Payload.AssistantDone) page.frames().get(0).payloadView()).text());
    assertEquals(List.of(second), seqs(next));
  }

  @Test
  void poll_waitsUntilAMatchingFrameIsStored() throws Exception {
    CompletableFuture<FramePage> poll = client.poll(VM, new PollRequest("host", "s", 0, 50, 30_000, Set.of(), null));
    assertFalse(poll.isDone());
    store.append(VM, Frames.assistantDone(SessionKey.host("other"), "x", "not ours", List.of()));
    assertFalse(poll.isDone(), "another session's frame is no match");

    long seq = store.append(VM, Frames.assistantDone(SESSION, "m", "answer", List.of()));

    FramePage page = poll.get(20, TimeUnit.SECONDS);
    assertEquals(List.of(seq), seqs(page));
    assertFalse(page.timedOut());
  }

  @Test
  void poll_withNothingToWaitFor_timesOutWithTheCursorUnchanged() throws Exception {
    FramePage page = client.poll(VM, new PollRequest("host", "s", 7, 50, 50, Set.of(), null)).get(20, TimeUnit.SECONDS);
    assertTrue(page.timedOut());
    assertEquals(7, page.nextSeq());
    assertTrue(page.frames().isEmpty());
  }

  @Test
  void cancellingAPoll_removesTheStoreWait() {
    CompletableFuture<FramePage> poll = client.poll(VM, new PollRequest("host", "s", 0, 50, 30_000, Set.of(), null));
    assertEquals(1, store.pendingWaits(VM));

    poll.cancel(false);

    assertEquals(0, store.pendingWaits(VM));
  }

  @Test
  void poll_reportsAGapWhenFramesAfterTheCursorWereEvicted() throws Exception {
    try (MemoryTetherStore small = MemoryTetherStore.create(Retention.builder().maxFrames(2).build())) {
      for (int i = 0; i < 5; i++) {
        small.append(VM, Frames.assistantDone(SESSION, "m", "answer " + i, List.of()));
      }

      FramePage page = StoreTetherClient.of(small).poll(VM, PollRequest.channel("host", 0, 0)).get();

      assertTrue(page.gap());
      assertEquals(4, page.oldestSeq());
      assertEquals(List.of(4L, 5L), seqs(page));
    }
  }

  @Test
  void poll_withABlobStore_returnsStoredRefsInline_andAMissingBlobAsTheRef() throws Exception {
    MemoryBlobStore blobs = new MemoryBlobStore();
    byte[] png = TestImages.png(64);
    Image inline = new Image(MediaType.PNG, Base64.getEncoder().encodeToString(png));
    Frame withRef = ImageRefs.toRefs(Frames.assistantDone(SESSION, "m", "look", List.of(inline)), (bytes, type) -> blobs.put(bytes, type).fileName());
    store.append(VM, withRef);
    Frame gone = ImageRefs.toRefs(Frames.assistantDone(SESSION, "m", "gone", List.of(inline)), (bytes, type) -> "ab".repeat(32) + ".png");
    store.append(VM, gone);
    StoreTetherClient resolving = StoreTetherClient.builder(store).blobs(instance -> blobs).build();

    FramePage page = resolving.poll(VM, PollRequest.channel("host", 0, 0)).get();

    Payload.AssistantDone shown = (Payload.AssistantDone) page.frames().get(0).payloadView();
    assertEquals(inline.data(), shown.images().get(0).data());
    assertFalse(ImageRefs.hasRefs(page.frames().get(0)));
    assertEquals(gone.withSeq(2), page.frames().get(1), "a blob that is gone leaves the frame as stored");
    assertTrue(ImageRefs.hasRefs(client.poll(VM, PollRequest.channel("host", 0, 0)).get().frames().get(0)),
        "without blob stores the page is as stored");
  }

  private static List<Long> seqs(FramePage page) {
    return page.frames().stream().map(Frame::seq).toList();
  }
}
