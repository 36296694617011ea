package dev.tether.telegram.internal;

import dev.tether.api.Image;
import dev.tether.telegram.TelegramChat;
import java.util.Base64;
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
  /** The multipart body: read-only by convention (held, not copied, between retries). */
  public static final class Body {
    private final byte[] bytes;

    Body(byte[] bytes) {
      this.bytes = bytes;
    }

    /** The body's length in bytes. */
    public int length() {
      return bytes.length;
    }

    byte[] bytes() {
      return bytes;
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
    byte[] bytes = Base64.getDecoder().decode(image.data());
    String method = PhotoRules.methodFor(image.mediaType(), bytes);
    String field = method.equals("sendPhoto") ? "photo" : "document";
    String name = "image-" + (index + 1) + "." + image.mediaType().extension();
    Multipart form = new Multipart().field("chat_id", Long.toString(chat.chatId()));
    if (chat.threadId().isPresent()) {
      form.field("message_thread_id", Long.toString(chat.threadId().getAsLong()));
    }
    if (caption != null && !caption.isEmpty()) {
      form.field("caption", caption);
    }
    form.file(field, name, image.mediaType().mimeType(), bytes);
    return new PhotoUpload(method, form.contentType(), new Body(form.finish()));
  }
}
