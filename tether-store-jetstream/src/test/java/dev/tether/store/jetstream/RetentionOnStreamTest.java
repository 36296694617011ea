package dev.tether.store.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.Retention;
import dev.tether.store.jetstream.internal.Names;
import dev.tether.store.jetstream.internal.StreamAdmin;
import dev.tether.store.jetstream.testing.NatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ring caps bound the stream itself, not only each host's view: what {@code serve
 * --ring-max-frames/--ring-max-bytes} promise with {@code --nats}.
 */
class RetentionOnStreamTest {
  static final SessionKey A = SessionKey.host("a");
  static final Names NAMES = new Names("tether");

  @TempDir static Path dir;
  static NatsServer server;
  static Connection admin;
  final List<AutoCloseable> closeAfter = new ArrayList<>();

  @BeforeAll
  static void startServer() throws Exception {
    server = NatsServer.single(dir);
    admin = Nats.connect(server.url());
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (admin != null) {
      admin.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closeAfter) {
      c.close();
    }
  }

  JetStreamTetherStore store(Retention retention) throws Exception {
    JetStreamTetherStore s = JetStreamTetherStore.builder().servers(server.url()).retention(retention).connect();
    closeAfter.add(s);
    return s;
  }

  static String instance(String name) {
    return name + "-" + Long.toString(System.nanoTime(), 36);
  }

  static Frame frame(String type, String text) {
    return Frame.builder(type).version(1).session(A).payload(RawJson.of("{\"text\":\"" + text + "\"}")).build();
  }

  StreamInfo stream(String vm) throws Exception {
    return admin.jetStreamManagement().getStreamInfo(NAMES.stream(vm));
  }

  @Test
  void nPlus50Appends_queryFromZeroHasGapOldestFirstPlus50AndNFrames_onEveryHost() throws Exception {
    int n = 20;
    Retention retention = Retention.builder().maxFrames(n).build();
    JetStreamTetherStore hostA = store(retention);
    String vm = instance("caps");
    long first = 0;
    for (int i = 0; i < n + 50; i++) {
      long seq = hostA.append(vm, frame("assistant.message", "m" + i));
      first = first == 0 ? seq : first;
    }
    JetStreamTetherStore hostB = store(retention); // starts its view from the stream alone
    for (JetStreamTetherStore host : List.of(hostA, hostB)) {
      QueryResult r = host.query(vm, FrameQuery.builder().afterSeq(0).limit(200).build());
      assertTrue(r.gap(), host + ": gap");
      assertEquals(first + 50, r.oldestSeq(), host + ": oldest_seq");
      assertEquals(n, r.frames().size(), host + ": frames");
      assertEquals(first + 50, r.frames().get(0).seq());
    }
    StreamInfo info = stream(vm);
    assertEquals(n + StreamAdmin.DELTA_SLOTS + 1, info.getConfiguration().getMaxMsgs());
    assertTrue(info.getConfiguration().getMaxBytes() > 0, "a byte bound as well");
    assertTrue(info.getStreamState().getMsgCount() <= n + StreamAdmin.DELTA_SLOTS + 1, "the stream itself is bounded");
  }

  @Test
  void thousandDeltas_stayInTheirSlots_andEvictNoStoredFrame() throws Exception {
    int n = 5;
    JetStreamTetherStore s = store(Retention.builder().maxFrames(n).build());
    String vm = instance("deltas");
    List<Long> stored = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      stored.add(s.append(vm, frame("user.message", "q" + i)));
      for (int d = 0; d < 200; d++) {
        s.append(vm, frame(d % 2 == 0 ? "assistant.delta" : "reasoning.delta", "d" + d));
      }
    }
    StreamInfo info = stream(vm);
    assertTrue(info.getStreamState().getMsgCount() <= n + StreamAdmin.DELTA_SLOTS + 1,
        "at most one delta per slot: " + info.getStreamState().getMsgCount());
    JetStreamTetherStore fresh = store(Retention.builder().maxFrames(n).build());
    for (JetStreamTetherStore host : List.of(s, fresh)) {
      QueryResult r = host.query(vm, FrameQuery.builder().types("user.message").build());
      assertEquals(stored, r.frames().stream().map(Frame::seq).toList(),
          (host == s ? "the appending host" : "a fresh host") + ": no stored frame lost to deltas");
      assertFalse(r.gap());
    }
  }

  @Test
  void deltasInRing_areStoredFrames_andTheStreamKeepsN() throws Exception {
    int n = 5;
    JetStreamTetherStore s = store(Retention.builder().maxFrames(n).deltasInRing(true).build());
    String vm = instance("keep-deltas");
    for (int i = 0; i < 30; i++) {
      s.append(vm, frame("assistant.delta", "d" + i));
    }
    StreamInfo info = stream(vm);
    assertEquals(n, info.getConfiguration().getMaxMsgs());
    assertEquals(n, info.getStreamState().getMsgCount());
    QueryResult r = s.query(vm, FrameQuery.all());
    assertEquals(List.of(26L, 27L, 28L, 29L, 30L), r.frames().stream().map(Frame::seq).toList());
    assertTrue(r.gap());
  }

  @Test
  void streamOfAnEarlierVersionWithoutCountBound_isBoundedWhenOpened() throws Exception {
    String vm = instance("legacy");
    admin.jetStreamManagement().addStream(StreamConfiguration.builder().name(NAMES.stream(vm))
        .subjects(NAMES.streamSubjects(vm)).storageType(StorageType.File).maxBytes(1 << 20).build());
    JetStreamTetherStore s = store(Retention.builder().maxFrames(7).build());
    s.append(vm, frame("user.message", "hello"));
    StreamConfiguration c = stream(vm).getConfiguration();
    assertEquals(7 + StreamAdmin.DELTA_SLOTS + 1, c.getMaxMsgs());
    assertTrue(c.getAllowRollup());
    s.append(vm, frame("assistant.delta", "rolls up now"));
  }
}
