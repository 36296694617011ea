package dev.tether.api.internal;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.IOContext;
import java.io.IOException;

/**
 * Not API. A {@link JsonFactory} with exactly another factory's configuration whose parsers over a
 * byte array are {@link PlainStringParser}s. It builds them as Jackson's {@code
 * ByteSourceJsonBootstrapper} builds a UTF-8 parser, and only where the bootstrapper would have
 * picked UTF-8 with nothing to skip (see {@link #plainUtf8}). Everything else (other encodings, a BOM, streams,
 * readers) goes to Jackson unchanged.
 */
public final class PlainStringFactory extends JsonFactory {
  private static final long serialVersionUID = 1L;

  public PlainStringFactory(JsonFactory configuration) {
    super(configuration, null);
  }

  @Override
  public JsonFactory copy() {
    return new PlainStringFactory(this);
  }

  @Override
  protected JsonParser _createParser(byte[] data, int offset, int len, IOContext ctxt) throws IOException {
    if (!plainUtf8(data, offset, len) || !Feature.CANONICALIZE_FIELD_NAMES.enabledIn(_factoryFeatures)
        || !Feature.CHARSET_DETECTION.enabledIn(_factoryFeatures)) {
      return super._createParser(data, offset, len, ctxt);
    }
    _streamReadConstraints.validateDocumentLength(len);
    ctxt.setEncoding(JsonEncoding.UTF8);
    return new PlainStringParser(ctxt, _parserFeatures, _objectCodec,
        _byteSymbolCanonicalizer.makeChild(_factoryFeatures), data, offset, offset + len);
  }

  /**
   * Whether Jackson's encoding detection certainly sees UTF-8 without a byte order mark: at least
   * four bytes, none of the first four zero (every UTF-16 and UTF-32 guess needs one), and a first
   * byte that starts no byte order mark.
   */
  static boolean plainUtf8(byte[] data, int offset, int len) {
    if (len < 4) {
      return false;
    }
    for (int i = 0; i < 4; i++) {
      if (data[offset + i] == 0) {
        return false;
      }
    }
    int b0 = data[offset] & 0xff;
    return b0 != 0xEF && b0 != 0xFE && b0 != 0xFF;
  }
}
