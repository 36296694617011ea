package dev.tether.telegram.internal;

import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.InlineImage;
import dev.tether.chat.AnswerImages;
import dev.tether.telegram.TelegramChat;
import java.util.List;
import java.util.Objects;

/**
 * One answer image as the Bot API upload that carries it: {@code sendPhoto}, or
 * {@code sendDocument} for what {@link PhotoRules} keeps out of {@code sendPhoto}, with its
 * {@code multipart/form-data} body built once, so a retried upload sends the same bytes again.
 *
 * <p>The image must already be validated (media type, base64, signature, limits); this class only
 * decodes it. Immutable; the body is never written after construction and never handed out to
 * caller code.
 *
 * @param method {@code sendPhoto} or {@code sendDocument}
 * @param contentType the body's Content-Type, with its boundary
 */
public record PhotoUpload(String method, String contentType, Body body) {
  /**
   * The multipart body as the pieces it is sent from (the part headers, the image bytes, the
   * closing boundary), so the decoded image is never copied into one array with its headers.
   * Read-only by convention: held, not copied, between retries.
   */
  public static final class Body {
    private final List<byte[]> pieces;
    private final long length;

    Body(List<byte[]> pieces) {
      this.pieces = List.copyOf(pieces);
      long n = 0;
      for (byte[] piece : this.pieces) {
        n += piece.length;
      }
      this.length = n;
    }

    /** The body's length in bytes. */
    public long length() {
      return length;
    }

    List<byte[]> pieces() {
      return pieces;
    }

    /** The body in one array (tests). */
    byte[] toByteArray() {
      byte[] all = new byte[Math.toIntExact(length)];
      int at = 0;
      for (byte[] piece : pieces) {
        System.arraycopy(piece, 0, all, at, piece.length);
        at += piece.length;
      }
      return all;
    }
  }

  public PhotoUpload {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
  }

  /**
   * The upload of {@code image}, the answer's image number {@code index} (zero-based; the file is
   * named {@code image-<index + 1>.<ext>}), to {@code chat}, with {@code caption} when not null.
   */
  public static PhotoUpload of(TelegramChat chat, Image image, int index, String caption) {
    return of(chat, image.mediaType(), decode(image.data()), index, caption);
  }

  /**
   * The upload of an answer's image read from the frame's bytes ({@link AnswerImages}), which must
   * already be {@link AnswerImages#check checked}: decoded straight from the payload, no String.
   */
  public static PhotoUpload of(TelegramChat chat, InlineImage image, int index, String caption) {
    return of(chat, image.mediaType(), AnswerImages.decode(image), index, caption);
  }

  private static PhotoUpload of(TelegramChat chat, MediaType type, byte[] bytes, int index, String caption) {
    String method = PhotoRules.methodFor(type, bytes);
    String field = method.equals("sendPhoto") ? "photo" : "document";
    String name = "image-" + (index + 1) + "." + type.extension();
    Multipart form = new Multipart().field("chat_id", Long.toString(chat.chatId()));
    if (chat.threadId().isPresent()) {
      form.field("message_thread_id", Long.toString(chat.threadId().getAsLong()));
    }
    if (caption != null && !caption.isEmpty()) {
      form.field("caption", caption);
    }
    return new PhotoUpload(method, form.contentType(), new Body(form.file(field, name, type.mimeType(), bytes)));
  }

  /** {@link AnswerImages#decode(String)}: the JDK decoder over validated base64 text, chunk by chunk. */
  static byte[] decode(String base64) {
    return AnswerImages.decode(base64);
  }
}
