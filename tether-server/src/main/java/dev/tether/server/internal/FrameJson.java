package dev.tether.server.internal;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.RawJson;
import dev.tether.store.QueryResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * JSON bodies of the HTTP API built from frames, writing each frame's payload bytes as stored.
 * Poll pages and stream lines are {@link AnswerBody answer bodies}: the envelopes are copied,
 * each large payload is a view of its stored bytes, never copied. The egress budget reserves
 * {@link #estimate} for an answer all the same, since the answer keeps those bytes alive until it
 * is written, even when the store lets go of them.
 */
final class FrameJson {
  private static final byte[] POLL_HEAD = "{\"frames\":[".getBytes(StandardCharsets.US_ASCII);

  private FrameJson() {}

  /**
   * {@code {"frames":[..],"next_seq":N,"timed_out":b}} plus {@code gap}/{@code oldest_seq} when
   * frames were evicted.
   */
  static AnswerBody pollResult(QueryResult r) {
    AnswerBody out = new AnswerBody(estimate(r));
    try {
      out.write(POLL_HEAD);
      boolean first = true;
      for (Frame f : r.frames()) {
        if (!first) {
          out.write(',');
        }
        first = false;
        out.share(f.payload());
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
    return out;
  }

  /** NDJSON lines for a stream: one frame per line, then a gap line when frames were evicted. */
  static AnswerBody streamLines(QueryResult r) {
    return streamLines(r, UnaryOperator.identity());
  }

  /** As {@link #streamLines(QueryResult)}, writing {@code view} of each frame (refs made inline, say). */
  static AnswerBody streamLines(QueryResult r, UnaryOperator<Frame> view) {
    return streamLines(r.gap(), r.oldestSeq(), r.frames(), view);
  }

  /** NDJSON lines of {@code view} of {@code frames}, after a gap line when {@code gap}. */
  static AnswerBody streamLines(boolean gap, long oldestSeq, List<Frame> frames, UnaryOperator<Frame> view) {
    long expected = 64;
    for (Frame f : frames) {
      expected += bound(f);
    }
    AnswerBody out = new AnswerBody(expected);
    try {
      if (gap) {
        out.write(("{\"gap\":true,\"oldest_seq\":" + oldestSeq + "}\n").getBytes(StandardCharsets.US_ASCII));
      }
      for (Frame f : frames) {
        Frame written = view.apply(f);
        out.share(written.payload());
        FrameCodec.standard().write(written, out);
        out.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * {@code {"msg_id":..,"session_id":..,"ingress_seq":N}} and a newline for an accepted frame, the
   * strings escaped as Jackson writes them (a null string is {@code null}). Written directly: a
   * tree and its writer cost more than the rest of the 202 answer.
   */
  static byte[] accepted(String msgId, String sessionId, long seq) {
    StringBuilder s = new StringBuilder(64 + (msgId == null ? 0 : msgId.length()) + (sessionId == null ? 0 : sessionId.length()));
    s.append("{\"msg_id\":");
    quote(s, msgId);
    s.append(",\"session_id\":");
    quote(s, sessionId);
    s.append(",\"ingress_seq\":").append(seq).append("}\n");
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void quote(StringBuilder s, String value) {
    if (value == null) {
      s.append("null");
    } else {
      s.append('"');
      JsonStringEncoder.getInstance().quoteAsString(value, s);
      s.append('"');
    }
  }

  /** An upper bound of the bytes {@link #pollResult} and {@link #streamLines} write for {@code r}'s stored frames. */
  static int estimate(QueryResult r) {
    long n = 128;
    for (Frame f : r.frames()) {
      n += bound(f);
    }
    return (int) Math.min(n, Integer.MAX_VALUE - 16);
  }

  /**
   * An upper bound of one frame's JSON and its separator: the raw parts as they are, each string
   * at six bytes a character (a six-character escape), and 160 bytes for the fixed field names,
   * version, timestamp and seq.
   */
  static long bound(Frame f) {
    long n = 160 + f.payload().size() + 6L * (f.type().length() + f.msgId().map(String::length).orElse(0));
    if (f.session().isPresent()) {
      n += 32 + 6L * (f.session().get().channel().length() + f.session().get().id().length());
    }
    for (Map<String, RawJson> extra : List.of(f.extensions(), f.sessionExtensions())) {
      for (Map.Entry<String, RawJson> e : extra.entrySet()) {
        n += 4 + 6L * e.getKey().length() + e.getValue().size();
      }
    }
    return n;
  }
}
