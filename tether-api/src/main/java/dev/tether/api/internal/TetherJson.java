package dev.tether.api.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;

/**
 * Not API. The one Jackson configuration of the tether modules, for every JSON they read or write:
 * frames, session lines, manifests, HTTP bodies, provider requests and the answers of the services
 * the bridges call.
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
 * <p>Thread-safe. Code outside tether must not use this class; it may change in any release.
 */
public final class TetherJson {
  /** The deepest nesting any tether JSON may have. */
  public static final int MAX_NESTING_DEPTH = 256;

  private static final JsonFactory FACTORY = new PlainStringFactory(newFactory());

  private TetherJson() {}

  /**
   * The shared factory, for streaming parsers and generators. Never reconfigure it and never give it
   * to an {@code ObjectMapper} (a mapper makes itself the factory's codec): use
   * {@link #newFactory()} for that. Its parsers over byte arrays of UTF-8 are {@link
   * PlainStringParser}s, which {@link RawStrings} moves past a plain base64 string in one scan.
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
}
