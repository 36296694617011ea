package dev.tether.telegram.internal;

import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.AttachmentClient;
import dev.tether.client.AttachmentInfo;
import dev.tether.images.ByteSizes;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Turns a document that is not an image (text, code, a PDF...) into a session attachment on the
 * host: downloaded from Telegram with a streaming cap, then stored through the
 * {@link AttachmentClient} under the chat's session with the MIME type Telegram reports for it
 * (the sender's client's type; none means {@code application/octet-stream}), never guessed.
 *
 * <p>Order of checks, cheapest first: the declared {@code file_size} against the attachment limit
 * and the Bot API's 20 MB {@code getFile} limit, {@code getFile}, its {@code file_size}, then the
 * download with a cap, so a missing or false size cannot make it read more. The host checks again
 * (size, name, type syntax). Every failure is a {@link Refused} with a sentence for the chat;
 * only a stop of the bridge is thrown. Thread-safe.
 */
final class DocumentAttacher {
  /** The stored attachment, or why there is none. */
  sealed interface Result permits Stored, Refused {}

  record Stored(AttachmentInfo attachment) implements Result {}

  record Refused(String explanation) implements Result {}

  /** The largest document attached: the host's default limit, 20 MiB (the Bot API caps downloads at 20 MB). */
  static final long MAX_BYTES = 20L << 20;
  private static final long HOST_TIMEOUT_SECONDS = 120;

  private final BotApi api;
  private final Retrier retrier;
  private final AttachmentClient host;
  private final String instance;

  DocumentAttacher(BotApi api, Retrier retrier, AttachmentClient host, String instance) {
    this.api = Objects.requireNonNull(api, "api");
    this.retrier = Objects.requireNonNull(retrier, "retrier");
    this.host = Objects.requireNonNull(host, "host");
    this.instance = Objects.requireNonNull(instance, "instance");
  }

  /** Whether the message carries a document that is not one of the four image types (those stay images). */
  static boolean applies(BotTypes.Message m) {
    if (m.document() == null || (m.photo() != null && !m.photo().isEmpty())) {
      return false;
    }
    String mime = m.document().mimeType();
    return mime == null || MediaType.parse(mime.toLowerCase(Locale.ROOT)).isEmpty();
  }

  /** Downloads the message's document and stores it as an attachment of {@code session}. */
  Result attach(BotTypes.Message m, SessionKey session) throws IOException {
    BotTypes.Document doc = m.document();
    String name = doc.fileName() == null || doc.fileName().isBlank() ? "document" : doc.fileName();
    String what = "The file " + quoted(name);
    if (doc.fileId() == null || doc.fileId().isEmpty()) {
      return new Refused(what + " came without a file id, so it was not forwarded.");
    }
    Optional<Refused> tooLarge = checkSize(what, doc.fileSize());
    if (tooLarge.isPresent()) {
      return tooLarge.get();
    }
    BotTypes.File file;
    Optional<byte[]> bytes;
    try {
      file = retrier.call("getFile", () -> api.getFile(doc.fileId()));
      tooLarge = checkSize(what, file.fileSize());
      if (tooLarge.isPresent()) {
        return tooLarge.get();
      }
      bytes = retrier.call("download", () -> api.download(file.filePath(), MAX_BYTES));
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      return new Refused(what + " could not be downloaded from Telegram (" + api.token().redact(e.getMessage())
          + "), so it was not forwarded. Please send it again.");
    }
    if (bytes.isEmpty()) {
      return new Refused(what + " is larger than " + ByteSizes.binaryRounded(MAX_BYTES) + ", the limit for an attached file,"
          + " so it was not forwarded.");
    }
    try {
      return new Stored(host.putAttachment(instance, session, name, doc.mimeType(), bytes.get())
          .get(HOST_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("stopped while attaching");
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      if (cause instanceof TetherException refused) {
        return new Refused(what + " was not accepted by the agent's host: " + refused.getMessage());
      }
      return new Refused(what + " could not be stored on the agent's host (" + cause.getMessage()
          + "), so it was not forwarded. Please send it again.");
    }
  }

  private static Optional<Refused> checkSize(String what, Long size) {
    if (size != null && size > Math.min(MAX_BYTES, BotApi.GET_FILE_LIMIT)) {
      return Optional.of(new Refused(what + " is " + ByteSizes.binaryRounded(size) + "; bots can only download files up to 20 MB"
          + " and attached files may have at most " + ByteSizes.binaryRounded(MAX_BYTES) + ", so it was not forwarded."));
    }
    return Optional.empty();
  }

  private static String quoted(String s) {
    String t = s.strip();
    return t.length() <= 60 ? "'" + t + "'" : "'" + t.substring(0, 57) + "...'";
  }
}
