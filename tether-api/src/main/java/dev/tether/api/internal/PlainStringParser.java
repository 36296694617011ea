package dev.tether.api.internal;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;
import com.fasterxml.jackson.core.sym.ByteQuadsCanonicalizer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Not API. Jackson's UTF-8 parser over a byte array, plus one move: past a string value whose bytes
 * are all printable ASCII without escapes (what base64 is), found eight bytes per step, so that a
 * multi-megabyte image string is not scanned a second time a byte at a time by Jackson's own skip.
 *
 * <p>That move accepts only what Jackson's skip accepts without error (a closing quote, before it
 * nothing but 0x20 to 0x7F other than the quote and the backslash); on anything else it does
 * nothing and the parser's own skip runs as before, so what is accepted, what is rejected and every
 * error message and location stay Jackson's. Created only by {@code dev.tether.api.json.TetherJson.factory()}.
 */
public final class PlainStringParser extends UTF8StreamJsonParser {
  private int provenBase;
  private int[] provenStarts;
  private int[] provenEnds;

  PlainStringParser(IOContext ctxt, int features, ObjectCodec codec, ByteQuadsCanonicalizer sym,
      byte[] input, int start, int end) {
    super(ctxt, features, null, codec, sym, input, start, end, 0, false);
  }

  /**
   * If the parser stands on a string value it has not read yet, and the value's bytes up to its
   * closing quote are all printable ASCII (0x20 to 0x7F) other than the backslash, moves past that
   * quote and returns its index in the input array (the value's bytes start where its token's byte
   * offset says, plus one); the current token stays {@link JsonToken#VALUE_STRING} but its text is no
   * longer available from the parser: the caller reads the bytes. Otherwise returns -1 and changes
   * nothing. Row and column stay right: the bytes skipped hold no line break.
   */
  public int skipPlainString() {
    if (currentToken() != JsonToken.VALUE_STRING || !_tokenIncomplete) {
      return -1;
    }
    int proven = provenEnd(_inputPtr);
    if (proven >= 0) {
      return skipProvenString(proven);
    }
    int end = RawStrings.printableEnd(_inputBuffer, _inputPtr, _inputEnd);
    if (end >= _inputEnd || _inputBuffer[end] != '"') {
      return -1;
    }
    _inputPtr = end + 1;
    _tokenIncomplete = false;
    return end;
  }

  /**
   * Tells the parser where a validator found strings of strict base64 without escapes in its input
   * (image data of a proven payload): the string starting at {@code base + starts[i]} closes at
   * {@code base + ends[i]} ({@code ends[i]} -1: not known). {@link #skipPlainString()} and what
   * builds on it then move past those strings without scanning them. Called through {@code
   * ApiInternals} only, with facts from {@code FrameValidator}; the arrays are never changed.
   */
  public void proven(int base, int[] starts, int[] ends) {
    this.provenBase = base;
    this.provenStarts = starts;
    this.provenEnds = ends;
  }

  private int provenEnd(int start) {
    int[] starts = provenStarts;
    if (starts != null) {
      for (int i = 0; i < starts.length; i++) {
        if (provenBase + starts[i] == start && provenEnds[i] >= 0) {
          return provenBase + provenEnds[i];
        }
      }
    }
    return -1;
  }

  /**
   * {@link #skipPlainString()} for a string value whose closing quote a validator has already found
   * at {@code end}, with strict base64 (printable ASCII, no quote, no backslash) before it: moves
   * there without scanning again. Returns -1 and changes nothing unless the parser stands on an
   * unread string value and {@code end} is a quote at or after the value's first byte.
   */
  public int skipProvenString(int end) {
    if (currentToken() != JsonToken.VALUE_STRING || !_tokenIncomplete || end < _inputPtr || end >= _inputEnd
        || _inputBuffer[end] != '"') {
      return -1;
    }
    _inputPtr = end + 1;
    _tokenIncomplete = false;
    return end;
  }

  /**
   * As {@link #skipPlainString()}, but returns the value as a Latin-1 string (one copy of its bytes),
   * which also stays the parser's text of the current token; {@code null} where that returns -1.
   */
  public String takePlainString() throws IOException {
    int start = _inputPtr;
    int end = skipPlainString();
    if (end < 0) {
      return null;
    }
    String s = new String(_inputBuffer, start, end - start, StandardCharsets.ISO_8859_1);
    _textBuffer.resetWithString(s);
    return s;
  }

  /**
   * As {@link #skipPlainString()}, but returns the value decoded by the JDK's standard base64
   * decoder straight from the input bytes; {@code null} where that returns -1.
   *
   * @throws IllegalArgumentException when the value is not standard base64
   */
  public byte[] decodePlainBase64() {
    int start = _inputPtr;
    int end = skipPlainString();
    if (end < 0) {
      return null;
    }
    ByteBuffer decoded = Base64.getDecoder().decode(ByteBuffer.wrap(_inputBuffer, start, end - start));
    byte[] bytes = decoded.array();
    // the decoder sizes its array exactly for valid base64; copy only if a JDK ever does otherwise
    return decoded.arrayOffset() == 0 && decoded.remaining() == bytes.length ? bytes
        : Arrays.copyOfRange(bytes, decoded.arrayOffset() + decoded.position(), decoded.arrayOffset() + decoded.limit());
  }
}
