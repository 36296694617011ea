package dev.tether.mcp;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;

/**
 * The protocol output of the stdio server, counting the lines (one JSON-RPC message each) written
 * through it, so that a server whose input ended can wait until every answer it queued has reached
 * its output before it closes the transport (the SDK's stdio transport writes on a thread of its
 * own, and closing it drops what it has not written yet). Thread-safe.
 */
final class WrittenLines extends FilterOutputStream {
  private long lines;

  WrittenLines(OutputStream out) {
    super(out);
  }

  @Override
  public synchronized void write(int b) throws IOException {
    out.write(b);
    if (b == '\n') {
      lines++;
      notifyAll();
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    int newlines = 0;
    for (int i = off; i < off + len; i++) {
      if (b[i] == '\n') {
        newlines++;
      }
    }
    if (newlines > 0) {
      lines += newlines;
      notifyAll();
    }
  }

  @Override
  public synchronized void flush() throws IOException {
    out.flush();
  }

  /** Waits until at least {@code count} lines were written or {@code timeout} passed; true when they were. */
  synchronized boolean awaitLines(long count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (lines < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }
}
