package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.FrameCodec.BoundedBody;
import dev.tether.api.TetherException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * Reads a request body without holding a thread while bytes are in flight, into one growing
 * buffer, refusing it as soon as it is larger than the limit.
 *
 * <p>Memory: the buffer starts at the declared length but at most 1 MiB. Once a body with a
 * declared length outgrows it, the buffer grows once, straight to the declared length (the client
 * has shown it is sending), so a large frame costs its size plus at most 1 MiB while it is read,
 * not the three times its size of repeated doubling. A chunked body doubles.
 *
 * <p>A declared {@code Content-Length} over the limit fails before any byte is read; a chunked
 * body fails on the chunk that crosses the limit, after at most {@code maxBytes + 1} bytes were
 * accepted into the buffer. The failure is a {@link TetherException} with
 * {@link ErrorCode#FRAME_TOO_LARGE}; a body cut short or badly chunked fails with
 * {@link ErrorCode#MALFORMED_FRAME}. Not thread-safe: Jetty calls {@link #run} serially.
 */
final class BodyReader implements Runnable {
  /** The largest first buffer: a client that declares a length has not yet shown it will send it. */
  static final long INITIAL_MAX = 1 << 20;

  private final Request request;
  private final int maxBytes;
  private final long declared;
  private final CompletableFuture<BoundedBody> result = new CompletableFuture<>();
  private byte[] buffer;
  private int length;

  private BodyReader(Request request, int maxBytes) {
    this.request = request;
    this.maxBytes = maxBytes;
    this.declared = request.getLength();
  }

  static CompletableFuture<BoundedBody> read(Request request, int maxBytes) {
    BodyReader reader = new BodyReader(request, maxBytes);
    long declared = reader.declared;
    if (declared > maxBytes) {
      reader.result.completeExceptionally(TetherException.frameTooLarge(maxBytes));
      return reader.result;
    }
    // Start from the declared length but at most 1 MiB: a client that declares 28 MiB and then
    // sends nothing must not make the server hold 28 MiB for it.
    reader.buffer = new byte[(int) Math.max(256, Math.min(declared < 0 ? 8192 : declared, Math.min(INITIAL_MAX, maxBytes + 1L)))];
    reader.run();
    return reader.result;
  }

  /**
   * A body that failed while it was read (the client closed early, bad chunking) is a client fault
   * like any malformed frame: {@link ErrorCode#MALFORMED_FRAME}, with Jetty's reason.
   */
  static TetherException cutShort(Throwable failure) {
    String reason = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    return TetherException.of(ErrorCode.MALFORMED_FRAME,
        "the request body ended early or was malformed (" + reason
            + "); send the whole frame with a correct Content-Length or valid chunked encoding", failure);
  }

  @Override
  public void run() {
    try {
      readAvailable();
    } catch (Throwable t) { // OutOfMemoryError growing the buffer included: answer, never hang
      result.completeExceptionally(t);
    }
  }

  private void readAvailable() {
    while (true) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        request.demand(this);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        result.completeExceptionally(cutShort(chunk.getFailure()));
        return;
      }
      try {
        ByteBuffer bytes = chunk.getByteBuffer();
        int n = bytes.remaining();
        if ((long) length + n > maxBytes) {
          result.completeExceptionally(TetherException.frameTooLarge(maxBytes));
          return;
        }
        if (length + n > buffer.length) {
          buffer = Arrays.copyOf(buffer, grownCapacity(length + n));
        }
        bytes.get(buffer, length, n);
        length += n;
      } finally {
        chunk.release();
      }
      if (chunk.isLast()) {
        result.complete(BoundedBody.compact(buffer, length));
        return;
      }
    }
  }

  /** The next buffer size for {@code needed} bytes: the declared length when known, else double. */
  private int grownCapacity(int needed) {
    long target = declared >= needed ? declared : Math.max(needed, buffer.length * 2L);
    return (int) Math.min(maxBytes + 1L, target);
  }

  /**
   * What reading a body of {@code declared} bytes (-1: unknown, chunked), at most
   * {@code maxFrameBytes}, can peak at: its length plus the first buffer of at most
   * {@link #INITIAL_MAX}, or twice the limit when chunked (the buffer grows by doubling).
   */
  static long reservation(long declared, int maxFrameBytes) {
    if (declared < 0) {
      return 2L * Math.max(maxFrameBytes, 1024);
    }
    long body = Math.max(Math.min(declared, maxFrameBytes), 1024);
    return body + Math.min(body, INITIAL_MAX);
  }
}
