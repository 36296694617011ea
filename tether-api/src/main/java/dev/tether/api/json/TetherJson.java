package dev.tether.api.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import dev.tether.api.RawJson;
import dev.tether.api.internal.ApiInternals;
import dev.tether.api.internal.PlainStringFactory;
import dev.tether.api.internal.PlainStringParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Objects;

/**
 * The one Jackson configuration of tether, for every JSON it reads or writes: frames, session
 * lines, manifests, HTTP bodies, provider requests and the answers of the services the bridges
 * call. A module that reads or writes tether JSON with Jackson takes its factory from here.
 *
 * <ul>
 *   <li>Strict duplicate detection, so a validator and a consumer can never disagree about which of
 *       two equal field names counts.
 *   <li>No echo of the input in error messages ({@code INCLUDE_SOURCE_IN_LOCATION} off): input is
 *       untrusted and may hold secrets or megabytes of base64.
 *   <li>Nesting bounded at {@link #MAX_NESTING_DEPTH}, numbers at 1000 digits; no string length cap,
 *       because every caller bounds the input it reads (frames at their size limit, HTTP bodies
 *       at theirs) and an image's base64 is one long string.
 *   <li>Generators neither close nor flush the stream they write to: the caller owns it.
 * </ul>
 *
 * <p>It also reads and writes {@link RawJson} without copying its bytes: {@link #parser(RawJson)}
 * parses a payload in place, {@link #write(Writer)} makes a payload of what a generator wrote, and
 * {@link #readString(JsonParser)} takes a long string (an image's base64) in one copy. None of them
 * hands out the bytes, so a {@code RawJson} stays immutable. Thread-safe.
 */
public final class TetherJson {
  /** The deepest nesting any tether JSON may have. */
  public static final int MAX_NESTING_DEPTH = 256;

  private static final JsonFactory FACTORY = new PlainStringFactory(newFactory());

  /** Writes one JSON value; see {@link TetherJson#write(Writer)}. */
  @FunctionalInterface
  public interface Writer {
    void writeTo(JsonGenerator generator) throws IOException;
  }

  private TetherJson() {}

  /**
   * The shared factory, for streaming parsers and generators. Never reconfigure it and never give it
   * to an {@code ObjectMapper} (a mapper makes itself the factory's codec): use
   * {@link #newFactory()} for that. Its parsers over byte arrays of UTF-8 move past a plain string
   * in one scan ({@link #readString}).
   */
  public static JsonFactory factory() {
    return FACTORY;
  }

  /** A new factory with the same configuration, for an {@code ObjectMapper} to own. */
  public static JsonFactory newFactory() {
    return JsonFactory.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
        .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
        .disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM)
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxStringLength(Integer.MAX_VALUE)
            .maxNestingDepth(MAX_NESTING_DEPTH)
            .maxNumberLength(1000)
            .build())
        .build();
  }

  /**
   * A parser of {@link #factory()} over {@code json}'s own bytes: nothing is copied. Its token
   * locations are byte offsets into {@code json}. The caller closes it.
   */
  public static JsonParser parser(RawJson json) throws IOException {
    JsonParser p = FACTORY.createParser(ApiInternals.array(json), ApiInternals.offset(json), json.size());
    if (p instanceof PlainStringParser plain) {
      ApiInternals.proveStrings(json, plain); // a validated payload's image data is not scanned again
    }
    return p;
  }

  /**
   * The text of the string value {@code p} stands on; {@code p} moves on to the next token. On a
   * parser of {@link #parser(RawJson)} a string of printable ASCII without escapes (all that base64
   * can be) is one Latin-1 copy of its bytes instead of the parser's char buffer and a String copy
   * of it (about four times the string's size); any other string is the parser's own text.
   *
   * @throws IllegalStateException when {@code p} is not on a string
   * @throws IOException where the parser finds the JSON broken
   */
  public static String readString(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw new IllegalStateException("the parser is on " + p.currentToken() + ", not a string");
    }
    String s = p instanceof PlainStringParser plain ? plain.takePlainString() : null;
    if (s == null) {
      s = p.getText();
    }
    p.nextToken();
    return s;
  }

  /**
   * If {@code p} (a parser of {@link #parser(RawJson)}) stands on a string value of printable ASCII
   * without escapes, the value decoded by the JDK's standard base64 decoder straight from the JSON's
   * bytes, with no String between; {@code p} then stands past the string (its current token stays
   * the string, whose text it no longer has). Otherwise {@code null}, and {@code p} is unchanged:
   * read the string through the parser.
   *
   * @throws IllegalArgumentException when the value is not standard base64
   */
  public static byte[] decodePlainBase64(JsonParser p) {
    return p instanceof PlainStringParser plain ? plain.decodePlainBase64() : null;
  }

  /**
   * The one JSON value {@code writer} writes with a generator of {@link #factory()}, as a {@link
   * RawJson} that owns the written bytes: no second parse and no copy beyond the buffer's. The
   * generator checks the structure; what the writer passes to its {@code writeRaw*} methods is
   * taken as it is, so it must be valid JSON text.
   *
   * @throws IllegalStateException when the writer wrote no value, more than one, or left one open
   */
  public static RawJson write(Writer writer) throws IOException {
    return write(256, writer);
  }

  /** {@link #write(Writer)} into a buffer that starts at {@code expectedBytes}, for large values. */
  public static RawJson write(int expectedBytes, Writer writer) throws IOException {
    Objects.requireNonNull(writer, "writer");
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(16, expectedBytes));
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      writer.writeTo(g);
      if (!g.getOutputContext().inRoot() || g.getOutputContext().getEntryCount() != 1) {
        throw new IllegalStateException("the writer must write exactly one complete JSON value");
      }
    }
    byte[] bytes = out.toByteArray(); // ours alone: nobody else holds the array
    return ApiInternals.wrapTrusted(bytes, 0, bytes.length);
  }
}
