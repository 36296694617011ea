package dev.tether.server.internal;

import dev.tether.api.RawJson;
import dev.tether.api.internal.ApiInternals;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An answer body (a poll page, stream lines) as the pieces it is written from: what the codec
 * writes around the payloads (envelopes, separators) is copied into small buffers, and each large
 * payload is kept as a read-only view of its own bytes, so a 28 MB frame is never copied to be
 * answered.
 *
 * <p>Only arrays named with {@link #share} are kept as views, and only while they are written
 * whole: a payload's bytes ({@link RawJson} promises they never change). Everything else is
 * copied, since an {@code OutputStream} caller may reuse its array. Not thread-safe; built by one
 * thread, then only read.
 */
final class AnswerBody extends OutputStream {
  /** Payloads smaller than this are copied with the envelope: a view would cost more than it saves. */
  static final int SHARE_MIN_BYTES = 16 * 1024;
  private static final int PIECE_BYTES = 16 * 1024;

  private final List<ByteBuffer> pieces = new ArrayList<>();
  private final int firstPieceBytes;
  private byte[] piece;
  private int count;
  private long length;
  private byte[] shared;
  private int sharedOffset;
  private int sharedLength;

  AnswerBody() {
    this(PIECE_BYTES);
  }

  /**
   * A body whose first piece holds {@code expectedBytes} (clamped to 256..{@value #PIECE_BYTES}),
   * so a small answer is one small array; later pieces are allocated only when written to.
   */
  AnswerBody(long expectedBytes) {
    firstPieceBytes = (int) Math.max(256, Math.min(PIECE_BYTES, expectedBytes));
  }

  /** The next write of exactly {@code json}'s bytes is kept as a view of them instead of copied. */
  void share(RawJson json) {
    if (json.size() >= SHARE_MIN_BYTES) {
      shared = ApiInternals.array(json);
      sharedOffset = ApiInternals.offset(json);
      sharedLength = json.size();
    }
  }

  @Override
  public void write(int b) {
    if (piece == null || count == piece.length) {
      nextPiece();
    }
    piece[count++] = (byte) b;
    length++;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    Objects.checkFromIndexSize(off, len, b.length);
    if (b == shared && off == sharedOffset && len == sharedLength) {
      endPiece();
      pieces.add(ByteBuffer.wrap(b, off, len).asReadOnlyBuffer());
      length += len;
      shared = null;
      return;
    }
    while (len > 0) {
      if (piece == null || count == piece.length) {
        nextPiece();
      }
      int n = Math.min(len, piece.length - count);
      System.arraycopy(b, off, piece, count, n);
      count += n;
      off += n;
      len -= n;
      length += n;
    }
  }

  /** Ends the current piece (if any bytes are in it); the next write allocates the next one. */
  private void endPiece() {
    if (count > 0) {
      pieces.add(ByteBuffer.wrap(piece, 0, count));
      piece = null;
      count = 0;
    }
  }

  private void nextPiece() {
    endPiece();
    piece = new byte[pieces.isEmpty() ? firstPieceBytes : PIECE_BYTES];
  }

  /** The pieces in order; the body is done being written. */
  List<ByteBuffer> buffers() {
    endPiece();
    return pieces;
  }

  /** The body's length in bytes. */
  long length() {
    return length;
  }
}
