package dev.tether.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * Reads and writes frames as compact JSON, enforcing {@link Limits#maxFrameBytes()} on input.
 *
 * <p>Instances are immutable and thread-safe. Reading checks the envelope (a JSON object with a
 * string {@code type}; {@code v}, {@code seq}, {@code session}, {@code msg_id}, {@code ts} of the
 * right shapes when present) and the JSON syntax of the payload, but not the payload's contents:
 * call {@link Frame#payloadView()} or the validator in {@code tether-images} for that. Every
 * problem with the input is a {@link TetherException}; nothing else escapes except
 * {@link IOException} from the stream itself.
 */
public final class FrameCodec {
  private static final FrameCodec STANDARD = new FrameCodec(Limits.defaults());

  private final Limits limits;

  private FrameCodec(Limits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  /** A codec with the protocol's default limits. */
  public static FrameCodec standard() {
    return STANDARD;
  }

  public static FrameCodec withLimits(Limits limits) {
    return new FrameCodec(limits);
  }

  public Limits limits() {
    return limits;
  }

  /**
   * Reads one frame. The payload is copied out of {@code json}, which the caller keeps.
   *
   * @throws TetherException {@link ErrorCode#FRAME_TOO_LARGE} over the wire limit, or
   *     {@link ErrorCode#MALFORMED_FRAME}
   */
  public Frame read(byte[] json) {
    requireWithinLimit(json.length);
    return FrameReader.read(json, 0, json.length, false);
  }

  /**
   * Reads one frame from a stream, reading at most {@code maxFrameBytes + 1} bytes before it gives
   * up with {@link ErrorCode#FRAME_TOO_LARGE}. The stream is read to its end, not closed. The
   * frame's payload shares the one buffer the body was read into.
   */
  public Frame read(InputStream in) throws IOException {
    BoundedBody body = readBounded(in, limits.maxFrameBytes());
    return FrameReader.read(body.buffer(), 0, body.length(), true);
  }

  /** Compact JSON for {@code frame}. */
  public byte[] write(Frame frame) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(frame.payload().size() + 256);
    try {
      FrameWriter.write(frame, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** Writes compact JSON for {@code frame} to {@code out}; {@code out} is neither flushed nor closed. */
  public void write(Frame frame, OutputStream out) throws IOException {
    FrameWriter.write(frame, out);
  }

  private void requireWithinLimit(long size) {
    if (size > limits.maxFrameBytes()) {
      throw TetherException.frameTooLarge(limits.maxFrameBytes());
    }
  }

  /** A body read into one buffer; bytes {@code [0, length)} are valid. */
  public record BoundedBody(byte[] buffer, int length) {
    /**
     * A body read into {@code buffer}, trimmed when more than an eighth of the buffer is unused:
     * a frame read from it shares the buffer, so spare capacity would stay pinned for as long as
     * the frame is stored (and a store's byte budget would not see it).
     */
    public static BoundedBody compact(byte[] buffer, int length) {
      Objects.checkFromIndexSize(0, length, buffer.length);
      return new BoundedBody(buffer.length - length > length / 8 ? Arrays.copyOf(buffer, length) : buffer, length);
    }
  }

  /**
   * Reads {@code in} to its end into one growing buffer, failing with
   * {@link ErrorCode#FRAME_TOO_LARGE} as soon as more than {@code maxBytes} arrive: at most
   * {@code maxBytes + 1} bytes are ever read.
   */
  public static BoundedBody readBounded(InputStream in, int maxBytes) throws IOException {
    byte[] buffer = new byte[Math.min(8192, maxBytes + 1)];
    int length = 0;
    while (true) {
      if (length == buffer.length) {
        if (length > maxBytes) {
          throw TetherException.frameTooLarge(maxBytes);
        }
        buffer = Arrays.copyOf(buffer, (int) Math.min((long) maxBytes + 1, (long) length * 2));
      }
      int n = in.read(buffer, length, buffer.length - length);
      if (n < 0) {
        return BoundedBody.compact(buffer, length);
      }
      length += n;
      if (length > maxBytes) {
        throw TetherException.frameTooLarge(maxBytes);
      }
    }
  }
}
