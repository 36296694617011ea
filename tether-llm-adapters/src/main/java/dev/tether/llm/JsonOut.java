package dev.tether.llm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.json.TetherJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * A JSON generator plus the stream under it, so that large values go straight to the stream:
 * image base64 is encoded once, chunk by chunk, into the output (never into a String), and raw
 * JSON (tool inputs) is copied as bytes.
 *
 * <p>The trick, as in tether-api's frame writer: {@code writeRawValue("")} lets the generator
 * place separators and track state, {@code flush()} pushes its buffer (but does not flush the
 * stream, since FLUSH_PASSED_TO_STREAM is off), then the value's bytes are written to the
 * stream directly. Not thread-safe; one per request being written.
 */
final class JsonOut implements AutoCloseable {
  /** Also reads trees back ({@link LlmRequest#toTree()}): no cap on string length (images are big). */
  static final JsonFactory FACTORY = TetherJson.factory();

  /** Input bytes per chunk: a multiple of 3, so chunks encode without padding in between. */
  private static final int CHUNK = 3 * 16 * 1024;

  final JsonGenerator g;
  private final OutputStream out;
  private byte[] src;
  private byte[] dst;

  JsonOut(OutputStream out) throws IOException {
    this.out = out;
    this.g = FACTORY.createGenerator(out);
  }

  /** Writes {@code "name": "<prefix><base64 of data>"}. */
  void base64Field(String name, String prefix, ImageData data) throws IOException {
    g.writeFieldName(name);
    base64Value(prefix, data);
  }

  /** Writes {@code "name": "data:<mime type>;base64,<base64 of data>"} (the OpenAI formats' image URL). */
  void dataUriField(String name, MediaType mediaType, ImageData data) throws IOException {
    base64Field(name, "data:" + mediaType.mimeType() + ";base64,", data);
  }

  /** Writes the string value {@code "<prefix><base64 of data>"}; the prefix must need no escaping. */
  void base64Value(String prefix, ImageData data) throws IOException {
    g.writeRawValue("");
    g.flush();
    out.write('"');
    if (!prefix.isEmpty()) {
      out.write(prefix.getBytes(StandardCharsets.US_ASCII));
    }
    if (data.isBase64()) {
      writeBase64Text(data.base64());
    } else {
      encode(data);
    }
    out.write('"');
  }

  /** Writes {@code value} as raw JSON bytes (a tool's input object). */
  void rawValue(RawJson value) throws IOException {
    g.writeRawValue("");
    g.flush();
    value.writeTo(out);
  }

  private void buffers() {
    if (src == null) {
      src = new byte[CHUNK];
      dst = new byte[CHUNK / 3 * 4];
    }
  }

  private void encode(ImageData data) throws IOException {
    buffers();
    Base64.Encoder encoder = Base64.getEncoder();
    try (InputStream in = data.openStream()) {
      while (true) {
        int n = in.readNBytes(src, 0, CHUNK);
        if (n == CHUNK) {
          int len = encoder.encode(src, dst);
          out.write(dst, 0, len);
        } else {
          if (n > 0) {
            byte[] tail = Arrays.copyOf(src, n);
            out.write(encoder.encode(tail));
          }
          return;
        }
      }
    }
  }

  /** Copies checked base64 text (ASCII) to the stream in chunks, padding it if it was unpadded. */
  @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int) is exactly Latin-1 copying
  private void writeBase64Text(String base64) throws IOException {
    buffers();
    int length = base64.length();
    for (int from = 0; from < length; from += dst.length) {
      int n = Math.min(dst.length, length - from);
      base64.getBytes(from, from + n, dst, 0);
      out.write(dst, 0, n);
    }
    int symbols = length;
    while (symbols > 0 && base64.charAt(symbols - 1) == '=') {
      symbols--;
    }
    if (symbols == length) {
      for (int pad = (4 - length % 4) % 4; pad > 0; pad--) {
        out.write('=');
      }
    }
  }

  @Override
  public void close() throws IOException {
    g.close();
  }
}
