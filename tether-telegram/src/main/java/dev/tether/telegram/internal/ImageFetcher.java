package dev.tether.telegram.internal;

import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.images.ByteSizes;
import dev.tether.images.Images;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns the photo or image document of one Telegram message into a validated wire {@link Image},
 * or into a short explanation for the chat of why it was not forwarded.
 *
 * <p>Order of checks, cheapest first: the file kind (a {@code photo}, whose largest size is the
 * last, is JPEG because Telegram re-encodes photos; a {@code document} is an image only with one of
 * the four MIME types), the declared {@code file_size} against the per-image limit and the Bot
 * API's 20 MB {@code getFile} limit, {@code getFile}, its {@code file_size}, then the download with
 * a streaming cap (so a missing or false size cannot make it read more), and last the bytes
 * through {@link Images#fromBytes} (same size and signature rules as every producer).
 * Thread-safe.
 */
final class ImageFetcher {
  /** One image, or why there is none. */
  sealed interface Result permits Fetched, Refused {}

  record Fetched(Image image) implements Result {}

  record Refused(String explanation) implements Result {}

  private final BotApi api;
  private final Retrier retrier;
  private final Limits limits;

  ImageFetcher(BotApi api, Retrier retrier, Limits limits) {
    this.api = Objects.requireNonNull(api, "api");
    this.retrier = Objects.requireNonNull(retrier, "retrier");
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  /** Whether the message carries a file this class looks at (a photo or a document). */
  static boolean hasFile(BotTypes.Message m) {
    return (m.photo() != null && !m.photo().isEmpty()) || m.document() != null;
  }

  /**
   * Fetches the message's image.
   *
   * @throws IOException only when the bridge is stopping ({@link java.io.InterruptedIOException});
   *     every failure of the file itself is a {@link Refused}
   */
  Result fetch(BotTypes.Message m) throws IOException {
    String fileId;
    Long declaredSize;
    MediaType type;
    String what;
    if (m.photo() != null && !m.photo().isEmpty()) {
      BotTypes.PhotoSize largest = m.photo().get(m.photo().size() - 1);
      fileId = largest.fileId();
      declaredSize = largest.fileSize();
      type = MediaType.JPEG;
      what = "This photo";
    } else {
      BotTypes.Document doc = m.document();
      String mime = doc.mimeType() == null ? null : doc.mimeType().toLowerCase(Locale.ROOT);
      Optional<MediaType> parsed = MediaType.parse(mime);
      String name = doc.fileName() == null ? "This file" : "The file " + shortName(doc.fileName());
      if (parsed.isEmpty()) {
        return new Refused(name + (mime == null ? " has no type" : " is " + shortName(mime))
            + "; I can only pass on PNG, JPEG, GIF and WebP images, so it was not forwarded.");
      }
      fileId = doc.fileId();
      declaredSize = doc.fileSize();
      type = parsed.get();
      what = name;
    }
    if (fileId == null || fileId.isEmpty()) {
      return new Refused(what + " came without a file id, so it was not forwarded.");
    }
    Optional<Refused> tooLarge = checkSize(what, declaredSize);
    if (tooLarge.isPresent()) {
      return tooLarge.get();
    }
    BotTypes.File file;
    try {
      file = retrier.call("getFile", () -> api.getFile(fileId));
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      return new Refused(what + " could not be fetched from Telegram (" + api.token().redact(e.getMessage())
          + "), so it was not forwarded. Please send it again.");
    }
    tooLarge = checkSize(what, file.fileSize());
    if (tooLarge.isPresent()) {
      return tooLarge.get();
    }
    long cap = Math.min(limits.maxImageBytes(), BotApi.GET_FILE_LIMIT);
    Optional<byte[]> bytes;
    try {
      bytes = retrier.call("download", () -> api.download(file.filePath(), cap));
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      return new Refused(what + " could not be downloaded from Telegram (" + api.token().redact(e.getMessage())
          + "), so it was not forwarded. Please send it again.");
    }
    if (bytes.isEmpty()) {
      return new Refused(what + " is larger than " + ByteSizes.binaryRounded(cap) + ", the limit per image, so it was not forwarded."
          + " Please send a smaller or compressed version.");
    }
    try {
      return new Fetched(Images.fromBytes(bytes.get(), type, limits));
    } catch (TetherException e) {
      return new Refused(what + " is not a valid " + type.mimeType() + " image (" + e.code() + "), so it was not forwarded.");
    }
  }

  private Optional<Refused> checkSize(String what, Long size) {
    if (size == null) {
      return Optional.empty();
    }
    if (size > BotApi.GET_FILE_LIMIT) {
      return Optional.of(new Refused(what + " is " + ByteSizes.binaryRounded(size) + "; bots can only download files up to 20 MB"
          + " and images up to " + ByteSizes.binaryRounded(limits.maxImageBytes()) + ", so it was not forwarded."
          + " Please send a smaller or compressed version."));
    }
    if (size > limits.maxImageBytes()) {
      return Optional.of(new Refused(what + " is " + ByteSizes.binaryRounded(size) + "; images can be at most "
          + ByteSizes.binaryRounded(limits.maxImageBytes()) + ", so it was not forwarded. Please send a smaller or compressed version."));
    }
    return Optional.empty();
  }

  /** A file name or MIME type as quoted back to the chat: at most 60 characters. */
  private static String shortName(String s) {
    String t = s.strip();
    return t.length() <= 60 ? "'" + t + "'" : "'" + t.substring(0, 57) + "...'";
  }
}
