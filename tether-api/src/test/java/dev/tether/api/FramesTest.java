package dev.tether.api;

import static dev.tether.api.FrameCodecTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The frame factories and host message ids. */
class FramesTest {
  private static final Pattern HOST_ID = Pattern.compile("host-[0-9]+");
  private static final Image PNG = new Image(MediaType.PNG, "iVBORw0KGgo=");
  private static final SessionKey SESSION = new SessionKey("telegram", "42");

  @Test
  void hostUserMessage_isAVersionedTimestampedHostFrameWithAHostId() {
    Instant before = Instant.now();
    Frame f = Frames.hostUserMessage("debug-1", "Analyze this chart", List.of(PNG));
    Instant after = Instant.now();
    assertEquals("user.message", f.type());
    assertTrue(f.hasVersion());
    assertEquals(1, f.version());
    assertEquals(SessionKey.host("debug-1"), f.session().orElseThrow());
    assertTrue(HOST_ID.matcher(f.msgId().orElseThrow()).matches(), f.msgId().orElseThrow());
    Instant ts = f.ts().orElseThrow();
    assertTrue(!ts.isBefore(before) && !ts.isAfter(after), ts + " not in [" + before + ", " + after + "]");
    assertEquals(0, f.seq());
    assertEquals("{\"text\":\"Analyze this chart\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}]}",
        f.payload().toString());
    assertEquals(Payload.UserMessage.of("Analyze this chart", List.of(PNG)), f.payloadView());
  }

  @Test
  void hostUserMessage_idNumberIsCloseToTheWallClockInNanos() {
    long before = System.currentTimeMillis();
    String id = Frames.hostUserMessage("d", "", List.of()).msgId().orElseThrow();
    long nanos = Long.parseLong(id.substring("host-".length()));
    long millis = nanos / 1_000_000;
    // The number is epoch nanos, forced upward only by earlier ids in this process.
    assertTrue(millis >= before - 1 && millis < before + 60_000, id + " vs " + before);
  }

  @Test
  void userMessage_onAnyChannelWithAUser() {
    Frame f = Frames.userMessage(SESSION, "tg-7", "", List.of(PNG), new User("99", "Ann"));
    assertEquals("tg-7", f.msgId().orElseThrow());
    assertEquals(SESSION, f.session().orElseThrow());
    assertEquals(new Payload.UserMessage("", List.of(PNG), Optional.of(new User("99", "Ann")), java.util.Map.of()),
        f.payloadView());
    assertEquals("{\"text\":\"\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}],"
        + "\"user\":{\"id\":\"99\",\"name\":\"Ann\"}}", f.payload().toString());
  }

  @Test
  void assistantDone_deltaAndPresence_carryTheRepliedToMsgId() {
    Frame done = Frames.assistantDone(SESSION, "host-5", "Here", List.of(PNG));
    assertEquals("assistant.done", done.type());
    assertEquals("host-5", done.msgId().orElseThrow());
    assertEquals("{\"text\":\"Here\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}]}",
        done.payload().toString());
    Frame doneTextOnly = Frames.assistantDone(SESSION, "host-5", "Here", List.of());
    assertEquals("{\"text\":\"Here\"}", doneTextOnly.payload().toString());

    Frame delta = Frames.assistantDelta(SESSION, "host-5", "He");
    assertEquals("assistant.delta", delta.type());
    assertEquals("{\"text\":\"He\"}", delta.payload().toString());

    Frame presence = Frames.presence(SESSION, "host-5", Payload.Presence.THINKING);
    assertEquals("status.presence", presence.type());
    assertEquals("host-5", presence.msgId().orElseThrow());
    assertEquals("{\"state\":\"thinking\"}", presence.payload().toString());
    for (Frame f : List.of(done, delta, presence)) {
      assertEquals(1, f.version());
      assertTrue(f.ts().isPresent());
      assertEquals(SESSION, f.session().orElseThrow());
    }
  }

  @Test
  void factoryFrames_writeCanonically() {
    Frame f = Frames.presence(SessionKey.host("default"), "host-1", "idle").toBuilder()
        .ts(Instant.parse("2026-01-02T03:04:05.000000001Z")).build();
    assertEquals("{\"v\":1,\"type\":\"status.presence\",\"ts\":\"2026-01-02T03:04:05.000000001Z\","
        + "\"session\":{\"channel\":\"host\",\"id\":\"default\"},\"msg_id\":\"host-1\",\"payload\":{\"state\":\"idle\"}}",
        text(FrameCodec.standard().write(f)));
  }

  @Test
  void hostIds_areUniqueAndIncreasingAcrossThreads() throws Exception {
    int threads = 8;
    int perThread = 10_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<String>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Callable<List<String>> task = () -> {
          start.await();
          List<String> ids = new ArrayList<>(perThread);
          for (int i = 0; i < perThread; i++) {
            ids.add(MsgIds.host());
          }
          return ids;
        };
        results.add(pool.submit(task));
      }
      start.countDown();
      Set<String> all = new HashSet<>();
      for (Future<List<String>> result : results) {
        List<String> ids = result.get(60, TimeUnit.SECONDS);
        long previous = -1;
        for (String id : ids) {
          assertTrue(HOST_ID.matcher(id).matches(), id);
          long n = Long.parseLong(id.substring(5));
          assertTrue(n > previous, "ids of one thread must increase: " + previous + " then " + n);
          previous = n;
          all.add(id);
        }
      }
      assertEquals(threads * perThread, all.size(), "distinct ids");
    } finally {
      pool.shutdownNow();
    }
  }
}
