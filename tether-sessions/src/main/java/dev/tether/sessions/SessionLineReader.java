package dev.tether.sessions;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a session file into lines without ever holding more than {@code maxLineBytes} of one
 * line: an over-long line is reported and skipped to its newline, a last line without a newline
 * (a write torn by a crash) is reported as torn. Not thread-safe; one reader per file read.
 */
final class SessionLineReader {
  /** What the reader found; {@link #LINE} means the bytes are in {@link #line()}. */
  enum Kind { LINE, TOO_LONG, TORN, END }

  private static final int CHUNK = 64 * 1024;

  private final InputStream in;
  private final int maxLineBytes;
  private final byte[] chunk = new byte[CHUNK];
  private int chunkPos;
  private int chunkEnd;
  private byte[] line = new byte[1024];
  private int lineLength;
  private long lineNumber;
  private long lineStart;
  private long position;
  private long completeBytes;

  SessionLineReader(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /** Advances to the next line (blank lines are skipped). */
  Kind next() throws IOException {
    while (true) {
      lineLength = 0;
      lineStart = position;
      boolean tooLong = false;
      boolean sawNewline = false;
      boolean sawAny = false;
      while (!sawNewline) {
        if (chunkPos == chunkEnd && !fill()) {
          break;
        }
        sawAny = true;
        int nl = indexOf(chunk, chunkPos, chunkEnd, (byte) '\n');
        int end = nl < 0 ? chunkEnd : nl;
        int n = end - chunkPos;
        if (!tooLong) {
          if (lineLength + n > maxLineBytes) {
            tooLong = true;
          } else {
            append(chunkPos, n);
          }
        }
        position += n;
        chunkPos = end;
        if (nl >= 0) {
          chunkPos++;
          position++;
          sawNewline = true;
          completeBytes = position;
        }
      }
      if (!sawAny) {
        return Kind.END;
      }
      lineNumber++;
      if (tooLong) {
        return Kind.TOO_LONG;
      }
      if (!sawNewline) {
        return Kind.TORN;
      }
      if (!isBlank()) {
        return Kind.LINE;
      }
    }
  }

  /**
   * Between lines: makes sure unread bytes are in the chunk and returns the end of the complete
   * lines at its start (just after the chunk's last newline), or {@link #chunkPos()} when it holds
   * none, so that a caller can read them in place and then {@link #skipLines skip} what it read.
   */
  int completeLinesEnd() throws IOException {
    if (chunkPos == chunkEnd && !fill()) {
      return chunkPos;
    }
    for (int i = chunkEnd - 1; i >= chunkPos; i--) {
      if (chunk[i] == '\n') {
        return i + 1;
      }
    }
    return chunkPos;
  }

  /** The chunk, for reading complete lines in place; see {@link #completeLinesEnd()}. */
  byte[] chunk() {
    return chunk;
  }

  int chunkPos() {
    return chunkPos;
  }

  /** Marks {@code chunk[chunkPos(), to)}, {@code lines} whole lines each ending in a newline, as read. */
  void skipLines(int to, int lines) {
    if (to <= chunkPos) {
      return;
    }
    lineNumber += lines;
    position += to - chunkPos;
    chunkPos = to;
    completeBytes = position;
  }

  byte[] line() {
    return line;
  }

  int lineLength() {
    return lineLength;
  }

  /** One-based number of the line just read. */
  long lineNumber() {
    return lineNumber;
  }

  /** File offset where the line just read starts. */
  long lineStart() {
    return lineStart;
  }

  /** Bytes up to and including the last newline seen: the part of the file no crash has torn. */
  long completeBytes() {
    return completeBytes;
  }

  private boolean fill() throws IOException {
    int n = in.read(chunk, 0, chunk.length);
    if (n <= 0) {
      return false;
    }
    chunkPos = 0;
    chunkEnd = n;
    return true;
  }

  private void append(int from, int n) {
    if (lineLength + n > line.length) {
      line = Arrays.copyOf(line, Math.min(maxLineBytes, Math.max(line.length * 2, lineLength + n)));
    }
    System.arraycopy(chunk, from, line, lineLength, n);
    lineLength += n;
  }

  private boolean isBlank() {
    for (int i = 0; i < lineLength; i++) {
      byte b = line[i];
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] a, int from, int to, byte b) {
    for (int i = from; i < to; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
