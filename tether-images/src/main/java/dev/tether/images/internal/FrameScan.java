package dev.tether.images.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.FrameTypes;
import dev.tether.api.TetherException;
import dev.tether.api.internal.WireRules;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * One pass over a frame (or a bare payload) that checks JSON syntax everywhere and collects what
 * the limits need: the type, whether {@code text} and {@code images} are present, and for each
 * image its declared media type, a base64 verdict, its decoded length and its first bytes.
 *
 * <p>Image data is never decoded or copied: {@link Base64Check} runs over the bytes in place and
 * keeps 16 symbols for the signature. Facts are kept for the first {@link #MAX_TRACKED} images;
 * beyond that only the count grows. Not thread-safe; reusable via {@link #scanFrame} and
 * {@link #scanPayload}.
 */
public final class FrameScan extends JsonScanner {
  /** Images beyond this are counted, not examined: the count limit rejects them anyway. */
  public static final int MAX_TRACKED = 64;

  private final Base64Check base64 = new Base64Check();

  // Frame-level facts.
  private String type;
  private boolean sawPayload;
  private boolean sawVersion;
  private boolean hasText;
  private boolean textNotString;
  private boolean hasImagesField;
  private boolean sawImages;
  private boolean imagesNotArray;
  private int imageCount;
  private int payloadStart = -1; // the payload object's bytes in the frame, or -1 for none
  private int payloadEnd = -1;

  // Per-image facts, index < MAX_TRACKED.
  private final String[] mediaTypes = new String[MAX_TRACKED];
  private final long[] decodedLengths = new long[MAX_TRACKED];
  private final String[] base64Problems = new String[MAX_TRACKED];
  private final boolean[] dataUri = new boolean[MAX_TRACKED];
  private final boolean[] hasData = new boolean[MAX_TRACKED];
  private final String[] blobs = new String[MAX_TRACKED];
  private final long[] blobSizes = new long[MAX_TRACKED];
  private final String[] shapeProblems = new String[MAX_TRACKED];
  private final byte[][] heads = new byte[MAX_TRACKED][];
  private final int[] headLengths = new int[MAX_TRACKED];
  private final int[] dataStarts = new int[MAX_TRACKED];
  private final int[] dataEnds = new int[MAX_TRACKED];
  private int dataOrigin; // what image data offsets count from: the payload RawJson's first byte
  /** Where the payload's bytes start when scanning a payload alone (its first byte, maybe whitespace); -1 in a frame. */
  private int payloadBase = -1;

  public String type() {
    return type;
  }

  public boolean hasText() {
    return hasText;
  }

  public boolean textNotString() {
    return textNotString;
  }

  public boolean hasImagesField() {
    return hasImagesField;
  }

  /** Whether {@code images} is present, not null, and not an array. */
  public boolean imagesNotArray() {
    return imagesNotArray;
  }

  public int imageCount() {
    return imageCount;
  }

  public String mediaType(int i) {
    return mediaTypes[i];
  }

  public long decodedLength(int i) {
    return decodedLengths[i];
  }

  /** Null when the image's data is well-formed base64. */
  public String base64Problem(int i) {
    return base64Problems[i];
  }

  public boolean dataUri(int i) {
    return dataUri[i];
  }

  public boolean hasData(int i) {
    return hasData[i];
  }

  /** The image's {@code blob} key, or null when it has none (an inline image). */
  public String blob(int i) {
    return blobs[i];
  }

  /** The image's declared {@code size}, or -1 when it has none. */
  public long blobSize(int i) {
    return blobSizes[i];
  }

  /** Null when the image object has the right shape (an object with string fields). */
  public String shapeProblem(int i) {
    return shapeProblems[i];
  }

  public byte[] head(int i) {
    return heads[i];
  }

  public int headLength(int i) {
    return headLengths[i];
  }

  /** Where image {@code i}'s data string starts (after its quote), relative to the payload's '{'. */
  public int dataStart(int i) {
    return dataStarts[i];
  }

  /**
   * Where image {@code i}'s data string's closing quote is, relative to the payload's '{', when the
   * string held base64 without escapes; else -1. Meaningful only for an image that has data.
   */
  public int dataEnd(int i) {
    return dataEnds[i];
  }

  private void resetFacts() {
    type = null;
    sawPayload = false;
    sawVersion = false;
    hasText = false;
    textNotString = false;
    hasImagesField = false;
    sawImages = false;
    imagesNotArray = false;
    imageCount = 0;
    payloadStart = -1;
    payloadEnd = -1;
  }

  /** Where the payload object starts in the scanned bytes, or -1 when the frame had none. */
  public int payloadStart() {
    return payloadStart;
  }

  /** Where the payload object ends (exclusive), or -1 when the frame had none. */
  public int payloadEnd() {
    return payloadEnd;
  }

  /** Scans a whole frame. Structural problems throw {@link ErrorCode#MALFORMED_FRAME}. */
  public void scanFrame(byte[] bytes, int offset, int length) {
    init(bytes, offset, length);
    resetFacts();
    if (peek() != '{') {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, "a frame must be a JSON object");
    }
    // The payload may come before the type, so its facts are collected for every type and
    // judged afterwards.
    if (openObject()) {
      do {
        String name = readName();
        switch (name) {
          case "type" -> {
            if (type != null) {
              throw duplicate("type");
            }
            if (peek() != '"') {
              throw TetherException.of(ErrorCode.MALFORMED_FRAME, "type must be a string");
            }
            type = readString();
          }
          case "payload" -> {
            if (sawPayload) {
              throw duplicate("payload");
            }
            sawPayload = true;
            if (peek() == 'n') {
              skipValue(1);
            } else {
              payloadStart = pos;
              payloadObject();
              payloadEnd = pos;
            }
          }
          case "v" -> {
            if (sawVersion) {
              throw duplicate("v");
            }
            sawVersion = true;
            version();
          }
          case "seq" -> envelopeInteger("seq", true);
          case "msg_id" -> envelopeString("msg_id");
          case "ts" -> {
            String ts = envelopeString("ts");
            if (ts != null) {
              requireTimestamp(ts);
            }
          }
          case "session" -> session();
          default -> skipValue(1);
        }
      } while (more('}'));
    }
    expectEnd();
    if (type == null || type.isEmpty()) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME,
          "frame has no type; set \"type\", for example \"user.message\"");
    }
    if (!sawVersion) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, WireRules.VERSION_MISSING);
    }
  }

  /**
   * At {@code v}'s value: the integer 1, or {@link ErrorCode#UNSUPPORTED_VERSION} for another
   * integer, or {@link ErrorCode#MALFORMED_FRAME} for anything that is not an integer (the same
   * verdicts and words as the codec).
   */
  private void version() {
    int c = peek();
    if (c != '-' && (c < '0' || c > '9')) {
      skipValue(1);
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, WireRules.VERSION_NOT_INTEGER);
    }
    int start = pos;
    skipValue(1);
    for (int i = start; i < pos; i++) {
      if (buf[i] == '.' || buf[i] == 'e' || buf[i] == 'E') {
        throw TetherException.of(ErrorCode.MALFORMED_FRAME, WireRules.VERSION_NOT_INTEGER);
      }
    }
    if (pos - start != 1 || buf[start] != '1') {
      String text = new String(buf, start, Math.min(pos - start, 32), StandardCharsets.US_ASCII);
      throw TetherException.of(ErrorCode.UNSUPPORTED_VERSION, WireRules.versionUnsupported(text));
    }
  }

  /** A non-negative integer (or null, when allowed, as 0) within a long; otherwise malformed. */
  private long envelopeInteger(String field, boolean nullable) {
    int c = peek();
    if (nullable && c == 'n') {
      skipValue(1);
      return 0;
    }
    int start = pos;
    long value = 0;
    while (pos < end && buf[pos] >= '0' && buf[pos] <= '9') {
      int digit = buf[pos++] - '0';
      if (value > (Long.MAX_VALUE - digit) / 10) {
        throw TetherException.of(ErrorCode.MALFORMED_FRAME, WireRules.SEQ_NOT_COUNT);
      }
      value = value * 10 + digit;
    }
    boolean leadingZero = pos - start > 1 && buf[start] == '0';
    if (pos == start || leadingZero || (pos < end && (buf[pos] == '.' || buf[pos] == 'e' || buf[pos] == 'E'))) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, WireRules.SEQ_NOT_COUNT);
    }
    return value;
  }

  /** A string or null (returned as null); otherwise malformed. */
  private String envelopeString(String field) {
    int c = peek();
    if (c == 'n') {
      skipValue(1);
      return null;
    }
    if (c != '"') {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, field + " must be a string");
    }
    return readString();
  }

  private void session() {
    int c = peek();
    if (c == 'n') {
      skipValue(1);
      return;
    }
    if (c != '{') {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, "session must be an object {\"channel\": ..., \"id\": ...}");
    }
    boolean channel = false;
    boolean id = false;
    if (openObject()) {
      do {
        String name = readName();
        if (name.equals("channel") || name.equals("id")) {
          if (peek() != '"') {
            throw TetherException.of(ErrorCode.MALFORMED_FRAME, "session." + name + " must be a string");
          }
          skipString();
          channel |= name.equals("channel");
          id |= name.equals("id");
        } else {
          skipValue(2);
        }
      } while (more('}'));
    }
    if (!channel || !id) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, "session needs both \"channel\" and \"id\"");
    }
  }

  private static void requireTimestamp(String ts) {
    try {
      OffsetDateTime.parse(ts.toUpperCase(Locale.ROOT),
          DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    } catch (DateTimeParseException e) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME,
          "ts must be an RFC 3339 timestamp such as 2026-01-02T03:04:05.123Z");
    }
  }

  /** Scans a payload object of a frame whose type is known. */
  public void scanPayload(String frameType, byte[] bytes, int offset, int length) {
    init(bytes, offset, length);
    resetFacts();
    type = frameType;
    payloadBase = offset;
    try {
      payloadObject();
    } finally {
      payloadBase = -1;
    }
    expectEnd();
  }

  private void payloadObject() {
    if (peek() != '{') {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, "payload must be a JSON object");
    }
    dataOrigin = payloadBase >= 0 ? payloadBase : pos; // a frame's payload RawJson starts at its '{'
    if (!openObject()) {
      return;
    }
    do {
      String name = readName();
      if (name.equals("text")) {
        if (hasText) {
          throw duplicate("payload.text");
        }
        hasText = true;
        if (peek() == '"') {
          skipString();
        } else {
          textNotString = true;
          skipValue(2);
        }
      } else if (name.equals("images")) {
        if (sawImages) {
          throw duplicate("payload.images");
        }
        sawImages = true;
        int c = peek();
        if (c == 'n') {
          skipValue(2); // "images": null is the same as no images
        } else {
          hasImagesField = true;
          if (c != '[') {
            // Judged later: only the types that model images require an array.
            imagesNotArray = true;
            skipValue(2);
          } else {
            imagesArray();
          }
        }
      } else {
        skipValue(2);
      }
    } while (more('}'));
  }

  private void imagesArray() {
    if (!openArray()) {
      return;
    }
    do {
      int index = imageCount++;
      if (index < MAX_TRACKED) {
        imageObject(index);
      } else {
        skipValue(3);
      }
    } while (more(']'));
  }

  private void imageObject(int index) {
    mediaTypes[index] = null;
    base64Problems[index] = null;
    dataUri[index] = false;
    hasData[index] = false;
    blobs[index] = null;
    blobSizes[index] = -1;
    shapeProblems[index] = null;
    decodedLengths[index] = 0;
    headLengths[index] = 0;
    if (peek() != '{') {
      shapeProblems[index] = "must be an object {\"media_type\", \"data\"}";
      skipValue(3);
      return;
    }
    boolean sawMediaType = false;
    if (!openObject()) {
      return;
    }
    do {
      String name = readName();
      if (name.equals("media_type")) {
        if (sawMediaType) {
          throw duplicate("media_type of image " + index);
        }
        sawMediaType = true;
        if (peek() == '"') {
          mediaTypes[index] = readString();
        } else {
          shapeProblems[index] = "media_type must be a string";
          skipValue(4);
        }
      } else if (name.equals("data")) {
        if (hasData[index]) {
          throw duplicate("data of image " + index);
        }
        hasData[index] = true;
        if (peek() == '"') {
          dataString(index);
        } else {
          shapeProblems[index] = "data must be a base64 string";
          skipValue(4);
        }
      } else if (name.equals("blob")) {
        if (blobs[index] != null) {
          throw duplicate("blob of image " + index);
        }
        if (peek() == '"') {
          blobs[index] = readString();
        } else {
          blobs[index] = "";
          shapeProblems[index] = "blob must be a string (a blob key)";
          skipValue(4);
        }
      } else if (name.equals("size")) {
        int start = pos;
        skipValue(4);
        String text = new String(buf, start, pos - start, StandardCharsets.US_ASCII).strip();
        long size = -1;
        if (!text.isEmpty() && text.chars().allMatch(Character::isDigit) && text.length() <= 18) {
          size = Long.parseLong(text);
        }
        if (size < 0) {
          shapeProblems[index] = "size must be a non-negative integer";
        }
        blobSizes[index] = size;
      } else {
        skipValue(4); // ref is reserved and ignored; other fields are not ours
      }
    } while (more('}'));
  }

  /** At the opening quote of an image's data: checks the base64 in place, one pass. */
  private void dataString(int index) {
    pos++;
    int start = pos;
    dataStarts[index] = start - dataOrigin;
    dataEnds[index] = -1;
    boolean escaped = false;
    if (end - start >= 5 && buf[start] == 'd' && buf[start + 1] == 'a' && buf[start + 2] == 't'
        && buf[start + 3] == 'a' && buf[start + 4] == ':') {
      dataUri[index] = true;
      pos--;
      skipString();
      return;
    }
    Base64Check check = base64;
    check.reset();
    String problem = null;
    while (true) {
      pos = check.feed(buf, pos, end);
      if (pos >= end) {
        throw malformed("unterminated string");
      }
      int b = buf[pos] & 0xff;
      if (b == '"') {
        if (!escaped) {
          dataEnds[index] = pos - dataOrigin;
        }
        pos++;
        break;
      }
      if (b == '\\') {
        escaped = true;
        pos++;
        int c = readEscape();
        if (check.feed(c)) {
          continue;
        }
        problem = check.problemAt(c, check.position());
      } else if (b < 0x20) {
        throw malformed("raw control character in a string");
      } else {
        problem = check.problemAt(b, check.position());
      }
      // Invalid base64: finish the string for the syntax check, then report.
      pos = start - 1;
      skipString();
      break;
    }
    if (problem == null) {
      problem = check.problemAtEnd();
    }
    base64Problems[index] = problem;
    decodedLengths[index] = check.decodedLength();
    if (heads[index] == null) {
      heads[index] = new byte[12];
    }
    headLengths[index] = check.decodeHead(heads[index]);
  }

  private TetherException duplicate(String field) {
    return TetherException.of(ErrorCode.MALFORMED_FRAME, "duplicate field " + field);
  }

  /** The images this frame type may carry: modelled image types yes, modelled text-only types no. */
  public static Boolean imagesAllowed(String type) {
    if (FrameTypes.mayCarryImages(type)) {
      return Boolean.TRUE;
    }
    switch (type) {
      case FrameTypes.ASSISTANT_DELTA:
      case FrameTypes.REASONING_DELTA:
      case FrameTypes.STATUS_PRESENCE:
      case FrameTypes.CONTROL_CANCEL:
        return Boolean.FALSE;
      default:
        return null; // other types pass through untouched
    }
  }
}
