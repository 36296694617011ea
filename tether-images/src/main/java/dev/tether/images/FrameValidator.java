package dev.tether.images;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.FrameTypes;
import dev.tether.api.Image;
import dev.tether.api.ImageRefs;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.TetherException;
import dev.tether.api.internal.ApiInternals;
import dev.tether.images.internal.FrameScan;
import dev.tether.images.internal.ToolFrameCheck;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Objects;

/**
 * Checks frames and images against the wire rules and a set of {@link Limits}: JSON syntax, the
 * shape of the envelope and payload, the four media types, strict base64 (no {@code data:}
 * prefix, no whitespace, optional padding), the declared type against the image's signature,
 * the per-image and per-frame decoded sizes, the image count, and images where a frame type
 * cannot carry them.
 *
 * <p>Images are never decoded: sizes come from base64 arithmetic, the alphabet from one
 * streaming scan, the signature from the first 16 symbols. Validating wire bytes allocates a few
 * hundred bytes however large the images are.
 *
 * <p>When several things are wrong, the first problem in this order is reported: malformed
 * structure, images not allowed, too many images, then each image in order (shape, media type,
 * {@code data:} prefix, base64, size, signature), then the frame's total. The tool frame types
 * ({@code ToolPayload}) are checked against their field rules right after the structure. Every
 * failure is a {@link TetherException}; nothing else escapes except {@link IOException} from a
 * stream.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class FrameValidator {
  private static final FrameValidator STANDARD = new FrameValidator(Limits.defaults());
  private static final ThreadLocal<FrameScan> SCANS = ThreadLocal.withInitial(FrameScan::new);

  private final Limits limits;

  private FrameValidator(Limits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
    if (limits.maxImagesPerMessage() > FrameScan.MAX_TRACKED) {
      // The scan keeps facts for that many images; beyond it, it only counts.
      throw new IllegalArgumentException("maxImagesPerMessage must be <= " + FrameScan.MAX_TRACKED
          + " for validation but was " + limits.maxImagesPerMessage());
    }
  }

  /** A validator with the protocol's default limits. */
  public static FrameValidator standard() {
    return STANDARD;
  }

  /**
   * A validator for {@code limits}.
   *
   * @throws IllegalArgumentException when {@code limits} allow more than
   *     {@link FrameScan#MAX_TRACKED} images per message
   */
  public static FrameValidator withLimits(Limits limits) {
    return new FrameValidator(limits);
  }

  public Limits limits() {
    return limits;
  }

  /** Validates a whole frame in its wire form. */
  public void validate(byte[] wire) {
    validate(wire, 0, wire.length);
  }

  /** Validates the frame in {@code wire[offset, offset + length)}. */
  public void validate(byte[] wire, int offset, int length) {
    judgeFrame(wire, offset, length);
  }

  /** Validates, and returns what it proved about the images (null: the type's images are not judged). */
  private Proven judgeFrame(byte[] wire, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, wire.length);
    if (length > limits.maxFrameBytes()) {
      throw TetherException.frameTooLarge(limits.maxFrameBytes());
    }
    FrameScan scan = SCANS.get();
    try {
      scan.scanFrame(wire, offset, length);
      ToolFrameCheck.check(scan.type(), wire, scan.payloadStart(), scan.payloadEnd());
    } finally {
      scan.release(); // the per-thread scanner must not pin up to 28 MiB of frame
    }
    return judge(scan);
  }

  /**
   * Reads a frame from {@code in} (at most {@code maxFrameBytes + 1} bytes), validates it, and
   * returns it. The body is held in one buffer, which the returned frame's payload shares: no
   * second copy is made. The payload's images carry an {@link dev.tether.api.ImageProof} in its
   * typed views, so consumers do not check them again.
   */
  public Frame read(InputStream in) throws IOException {
    FrameCodec.BoundedBody body = FrameCodec.readBounded(in, limits.maxFrameBytes());
    return readOwned(body.buffer(), 0, body.length());
  }

  /**
   * Validates the frame in {@code wire[offset, offset + length)} and reads it with its payload
   * sharing {@code wire}, which the caller gives up: it must never change afterwards. As {@link
   * #read(InputStream)}, the images carry their proof.
   */
  public Frame readOwned(byte[] wire, int offset, int length) {
    Proven verified = judgeFrame(wire, offset, length);
    return marked(ApiInternals.readShared(wire, offset, length), verified);
  }

  /** Validates, then reads, a frame in its wire form. The payload is copied out of {@code wire}. */
  public Frame read(byte[] wire) {
    Proven verified = judgeFrame(wire, 0, wire.length);
    return marked(FrameCodec.withLimits(limits).read(wire), verified);
  }

  /**
   * Validates a frame object (its payload against its type), for consumers that got it elsewhere.
   * Once it passes, the payload's images carry their proof.
   */
  public void validate(Frame frame) {
    validatePayload(frame.type(), frame.payload());
  }

  /** Validates {@code payload} as the payload of a frame of {@code type}; as {@link #validate(Frame)}. */
  public void validatePayload(String type, RawJson payload) {
    FrameScan scan = SCANS.get();
    try {
      scan.scanPayload(type, ApiInternals.array(payload), ApiInternals.offset(payload), payload.size());
      ToolFrameCheck.check(type, ApiInternals.array(payload), ApiInternals.offset(payload),
          ApiInternals.offset(payload) + payload.size());
    } finally {
      scan.release();
    }
    Proven verified = judge(scan);
    if (verified != null) {
      ApiInternals.markImagesVerified(payload, verified.types(), verified.starts(), verified.ends());
    }
  }

  private static Frame marked(Frame frame, Proven verified) {
    if (verified != null && frame.hasPayload()) {
      ApiInternals.markImagesVerified(frame.payload(), verified.types(), verified.starts(), verified.ends());
    }
    return frame;
  }

  /**
   * Validates images a producer is about to send in one message: count, each image, and the
   * total.
   */
  public void validateImages(List<Image> images) {
    if (images.size() > limits.maxImagesPerMessage()) {
      throw tooManyImages(images.size());
    }
    long total = 0;
    for (int i = 0; i < images.size(); i++) {
      total += ImageCheck.check(images.get(i), i, limits);
    }
    requireFrameTotal(total);
  }

  /** Judges what the scan found; returns what it proves when the frame's type carries images, else null. */
  private Proven judge(FrameScan scan) {
    String type = scan.type();
    Boolean imagesAllowed = FrameScan.imagesAllowed(type);
    if (imagesAllowed != null && scan.imagesNotArray()) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME,
          "images must be an array of {\"media_type\", \"data\"} objects");
    }
    if (Boolean.FALSE.equals(imagesAllowed) && scan.hasImagesField()) {
      throw TetherException.of(ErrorCode.IMAGES_NOT_ALLOWED,
          type + " cannot carry images; send them in assistant.done or assistant.message");
    }
    if (requiresText(type) && (!scan.hasText() || scan.textNotString())) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME,
          type + " payload needs a string \"text\" (use \"\" for an image-only message)");
    }
    if (imagesAllowed == null) {
      return null; // unknown types pass through untouched
    }
    int count = scan.imageCount();
    if (count > limits.maxImagesPerMessage()) {
      throw tooManyImages(count);
    }
    MediaType[] types = new MediaType[count];
    int[] starts = new int[count];
    int[] ends = new int[count];
    long total = 0;
    for (int i = 0; i < count; i++) {
      total += judgeImage(scan, i);
      boolean inline = scan.blob(i) == null;
      types[i] = inline ? MediaType.parse(scan.mediaType(i)).orElseThrow() : null;
      starts[i] = inline ? scan.dataStart(i) : -1;
      ends[i] = inline ? scan.dataEnd(i) : -1;
    }
    requireFrameTotal(total);
    return imagesAllowed ? new Proven(types, starts, ends) : null;
  }

  /**
   * What a passed frame proves about its images: each one's declared type (null for a blob ref) and
   * where its data string lies in the payload (-1 for none or one with escapes).
   */
  private record Proven(MediaType[] types, int[] starts, int[] ends) {}

  private long judgeImage(FrameScan scan, int i) {
    if (scan.shapeProblem(i) != null) {
      throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, i, "image " + i + ": " + scan.shapeProblem(i));
    }
    MediaType declared = ImageCheck.mediaType(scan.mediaType(i), i);
    if (scan.hasData(i) == (scan.blob(i) != null)) {
      throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, i, "image " + i
          + " must have exactly one of \"data\" (inline base64) and \"blob\" (a blob key); \"ref\" is reserved");
    }
    if (scan.blob(i) != null) {
      return judgeRef(scan, i, declared);
    }
    if (scan.dataUri(i)) {
      throw ImageCheck.dataUri(i);
    }
    if (scan.base64Problem(i) != null) {
      throw TetherException.forImage(ErrorCode.INVALID_BASE64, i, "image " + i + ": " + scan.base64Problem(i));
    }
    long size = scan.decodedLength(i);
    ImageCheck.requireImageSize(size, i, limits);
    ImageCheck.requireSignature(declared, scan.head(i), scan.headLength(i), i);
    return size;
  }

  /**
   * A blob ref: only its shape is checked here (a key for its media type, a declared size within
   * the limit). Whether the blob exists and matches is for whoever holds the blob store.
   */
  private long judgeRef(FrameScan scan, int i, MediaType declared) {
    if (!ImageRefs.isKeyFor(scan.blob(i), declared)) {
      String key = scan.blob(i);
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + ": blob '"
          + (key.length() > 80 ? key.substring(0, 80) + "..." : key) + "' is not a blob key for " + declared.mimeType()
          + " (64 lowercase hex digits of the SHA-256 of the bytes, then ." + declared.extension() + ")");
    }
    long size = scan.blobSize(i);
    if (size >= 0) {
      ImageCheck.requireImageSize(size, i, limits);
    }
    return Math.max(0, size);
  }

  private static boolean requiresText(String type) {
    return FrameTypes.mayCarryImages(type) || FrameTypes.ASSISTANT_DELTA.equals(type);
  }

  private void requireFrameTotal(long total) {
    if (total > limits.maxFrameImageBytes()) {
      throw TetherException.of(ErrorCode.FRAME_IMAGES_TOO_LARGE,
          "the images add up to " + ByteSizes.binaryExact(total) + " decoded; a frame may carry at most "
              + ByteSizes.binaryExact(limits.maxFrameImageBytes()) + " of images, so send some in another message");
    }
  }

  private TetherException tooManyImages(int count) {
    return TetherException.of(ErrorCode.TOO_MANY_IMAGES,
        "the message has " + count + " images; at most " + limits.maxImagesPerMessage()
            + " are allowed per message, so send the rest in another message");
  }
}
