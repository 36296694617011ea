package dev.tether.api.internal;

/**
 * Not API. The one wording of each envelope rule that both readers of the wire enforce: the
 * codec ({@code FrameReader}, Jackson) and the validator ({@code FrameScan} in tether-images,
 * its own scanner). A rule is reported with the same sentence whichever of them finds the
 * problem, so a user never sees "positive" from one and "non-negative" from the other.
 */
public final class WireRules {
  private WireRules() {}

  /** {@code v} absent (MALFORMED_FRAME). */
  public static final String VERSION_MISSING =
      "frame has no version; set \"v\": 1";
  /** {@code v} present but not an integer (MALFORMED_FRAME). */
  public static final String VERSION_NOT_INTEGER =
      "v must be the integer 1";

  /** {@code v} an integer other than 1 (UNSUPPORTED_VERSION). */
  public static String versionUnsupported(String v) {
    String shown = v.length() > 24 ? v.substring(0, 24) + "..." : v;
    return "v is " + shown + " but this SDK speaks only version 1; send \"v\": 1";
  }

  /** {@code seq} of the wrong shape (MALFORMED_FRAME). */
  public static final String SEQ_NOT_COUNT = "seq must be a non-negative integer below 2^63";

  /** An unpaired UTF-16 surrogate escape in any string (MALFORMED_FRAME, RFC 7493). */
  public static final String LONE_SURROGATE =
      "a string holds an unpaired UTF-16 surrogate escape (\\ud800-\\udfff must come as a high-low pair, RFC 7493)";

  /** Whether the UTF-16 unit is a high (leading) surrogate. */
  public static boolean isHighSurrogate(int unit) {
    return unit >= 0xD800 && unit <= 0xDBFF;
  }

  /** Whether the UTF-16 unit is a low (trailing) surrogate. */
  public static boolean isLowSurrogate(int unit) {
    return unit >= 0xDC00 && unit <= 0xDFFF;
  }
}
