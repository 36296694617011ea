package dev.tether.api;

import dev.tether.api.internal.AsciiChars;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Objects;

/**
 * The decoded bytes of base64 text held as a String, decoded a chunk at a time: memory stays at
 * one chunk whatever the text's length. Text that is not base64 fails the read with an
 * {@link IOException}, as the JDK's wrapping decoder does. Not thread-safe.
 */
final class Base64TextStream extends InputStream {
  /** Characters per chunk: a multiple of 4, so every chunk but the last decodes on its own. */
  private static final int CHUNK = 4 * 4096;

  private final String text;
  private final Base64.Decoder decoder = Base64.getDecoder();
  private final char[] scratch;
  private final byte[] ascii;
  private byte[] decoded;
  private int next;
  private int at;
  private int end;

  Base64TextStream(String text) {
    this.text = text;
    int chunk = Math.min(CHUNK, text.length());
    this.scratch = new char[chunk];
    this.ascii = new byte[chunk];
    this.decoded = new byte[chunk / 4 * 3];
  }

  @Override
  public int read() throws IOException {
    if (at == end && !fill()) {
      return -1;
    }
    return decoded[at++] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (at == end && !fill()) {
      return -1;
    }
    int n = Math.min(len, end - at);
    System.arraycopy(decoded, at, b, off, n);
    at += n;
    return n;
  }

  @Override
  public int available() {
    return end - at;
  }

  private boolean fill() throws IOException {
    if (next == text.length()) {
      return false;
    }
    int n = Math.min(ascii.length, text.length() - next);
    if (!AsciiChars.copy(text, next, next + n, scratch, ascii)) {
      throw new IOException("the image data is not base64: it holds a character outside ASCII");
    }
    try {
      if (next + n < text.length()) { // a whole chunk, with more after it: no padding in it
        end = decoder.decode(ascii, decoded);
      } else {
        ByteBuffer last = decoder.decode(ByteBuffer.wrap(ascii, 0, n));
        decoded = last.array();
        end = last.remaining();
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("the image data is not base64: " + e.getMessage(), e);
    }
    next += n;
    at = 0;
    return true;
  }
}
