package dev.tether.server.internal;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.store.QueryResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** JSON bodies of the HTTP API built from frames, writing each frame's payload bytes as stored. */
final class FrameJson {
  private FrameJson() {}

  /** {@code {"frames":[..],"next_seq":N,"timed_out":b}} plus {@code gap}/{@code oldest_seq} when frames were evicted. */
  static byte[] pollResult(QueryResult r) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(estimate(r));
    try {
      out.write("{\"frames\":[".getBytes(StandardCharsets.US_ASCII));
      boolean first = true;
      for (Frame f : r.frames()) {
        if (!first) {
          out.write(',');
        }
        first = false;
        FrameCodec.standard().write(f, out);
      }
      StringBuilder tail = new StringBuilder("],\"next_seq\":").append(r.nextSeq())
          .append(",\"timed_out\":").append(r.timedOut());
      if (r.gap()) {
        tail.append(",\"gap\":true,\"oldest_seq\":").append(r.oldestSeq());
      }
      tail.append("}\n");
      out.write(tail.toString().getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** NDJSON lines for a stream: one frame per line, then a gap line when frames were evicted. */
  static byte[] streamLines(QueryResult r) {
    return streamLines(r, java.util.function.UnaryOperator.identity());
  }

  /** As {@link #streamLines(QueryResult)}, writing {@code view} of each frame (refs made inline, say). */
  static byte[] streamLines(QueryResult r, java.util.function.UnaryOperator<Frame> view) {
    return streamLines(r.gap(), r.oldestSeq(), r.frames(), view);
  }

  /** NDJSON lines of {@code view} of {@code frames}, after a gap line when {@code gap}. */
  static byte[] streamLines(boolean gap, long oldestSeq, java.util.List<Frame> frames, java.util.function.UnaryOperator<Frame> view) {
    long n = 64;
    for (Frame f : frames) {
      n += f.payload().size() + 200;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(n, Integer.MAX_VALUE - 16));
    try {
      if (gap) {
        out.write(("{\"gap\":true,\"oldest_seq\":" + oldestSeq + "}\n").getBytes(StandardCharsets.US_ASCII));
      }
      for (Frame f : frames) {
        FrameCodec.standard().write(view.apply(f), out);
        out.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** {@code {"msg_id":..,"session_id":..,"ingress_seq":N}} for an accepted frame. */
  static byte[] accepted(String msgId, String sessionId, long seq) {
    com.fasterxml.jackson.databind.node.ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("msg_id", msgId);
    n.put("session_id", sessionId);
    n.put("ingress_seq", seq);
    return (n.toString() + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** An upper bound of the bytes {@link #pollResult} and {@link #streamLines} write for {@code r}'s stored frames. */
  static int estimate(QueryResult r) {
    long n = 64;
    for (Frame f : r.frames()) {
      n += f.payload().size() + 200;
    }
    return (int) Math.min(n, Integer.MAX_VALUE - 16);
  }
}
