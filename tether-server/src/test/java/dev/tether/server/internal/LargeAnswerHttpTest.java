package dev.tether.server.internal;

import dev.tether.server.testing.StreamReader;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.SessionKey;
import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Answers larger than one write slice ({@link SlicedWrite#SLICE_BYTES}) arrive whole and in order
 * over a real socket: a poll page of several frames and a stream line of one frame, each more than
 * one slice long and not a multiple of the slice size (the test client buffers at most 2 MiB).
 */
class LargeAnswerHttpTest {
  @TempDir Path dir;

  private static String text(int length, long seed) {
    Random random = new Random(seed);
    StringBuilder s = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      s.append((char) ('a' + random.nextInt(26)));
    }
    return s.toString();
  }

  @Test
  void pollPageAndStreamLine_ofSeveralSlices_arriveByteForByte() throws Exception {
    MemoryTetherStore store = MemoryTetherStore.create();
    List<Frame> frames = List.of(
        Frames.assistantDone(SessionKey.host("s"), "m1", text(1_200_001, 1), List.of()),
        Frames.assistantDone(SessionKey.host("s"), "m2", text(300_000, 2), List.of()),
        Frames.assistantDone(SessionKey.host("s"), "m3", text(400_003, 3), List.of()));
    for (Frame f : frames) {
      store.append("big", f);
    }
    try (TetherServer s = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("t.sock"))).store(store)
        .workspaces(dir.resolve("ws")).autoCreate(true).start();
        RawHttp http = new RawHttp(s.boundAddress())) {
      RawHttp.Reply page = http.get("/v1/instances/big/tether/poll");
      assertEquals(200, page.status(), page.body());
      JsonNode json = page.json();
      assertEquals(3, json.get("frames").size());
      for (int i = 0; i < 3; i++) {
        Frame read = FrameCodec.standard().read(json.get("frames").get(i).toString().getBytes(StandardCharsets.UTF_8));
        assertEquals(frames.get(i).withSeq(i + 1).payload(), read.payload(), "frame " + i);
        assertEquals(i + 1, read.seq());
      }
      assertEquals(3, json.get("next_seq").asLong());

      try (StreamReader stream = new StreamReader((HostAddress.Unix) s.boundAddress(), "/v1/instances/big/tether/stream?after_seq=0")) {
        for (int i = 0; i < 3; i++) {
          JsonNode line = stream.nextFrame();
          assertEquals(i + 1, line.get("seq").asLong());
          assertEquals(frames.get(i).payload().toString(), line.get("payload").toString(), "stream frame " + i);
        }
      }
    }
  }
}
