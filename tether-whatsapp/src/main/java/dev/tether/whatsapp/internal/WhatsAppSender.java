package dev.tether.whatsapp.internal;

import dev.tether.api.InlineImage;
import dev.tether.chat.AnswerImages;
import dev.tether.chat.ChatSender;
import dev.tether.whatsapp.WhatsAppChat;
import java.io.IOException;
import java.util.Objects;

/**
 * The Cloud API as the core's {@link ChatSender}: text messages (4,096 characters), images
 * uploaded ({@code POST /<phone-number-id>/media}) then sent as image messages with the caption
 * (1,024 characters). WhatsApp has no edits and no typing indicator for these messages: live drafts
 * are never used, {@link #showTyping} does nothing. A refusal such as the 24-hour window is a
 * {@link GraphApiException} whose message says what to do; the core logs it and moves on.
 * Thread-safe.
 */
final class WhatsAppSender implements ChatSender<WhatsAppChat> {
  static final int TEXT_LIMIT = 4096;
  static final int CAPTION_LIMIT = 1024;

  private final GraphApi api;

  WhatsAppSender(GraphApi api) {
    this.api = Objects.requireNonNull(api, "api");
  }

  @Override
  public int textLimit() {
    return TEXT_LIMIT;
  }

  @Override
  public int captionLimit() {
    return CAPTION_LIMIT;
  }

  @Override
  public String textCall() {
    return "send text message";
  }

  @Override
  public long sendText(WhatsAppChat chat, String text) throws IOException {
    api.sendText(chat.waId(), text);
    return 0;
  }

  @Override
  public ImageUpload prepareImage(WhatsAppChat chat, InlineImage image, int index, String caption) {
    byte[] bytes = AnswerImages.decode(image);
    String name = "image-" + (index + 1) + "." + image.mediaType().extension();
    return new ImageUpload() {
      private String mediaId;

      @Override
      public String call() {
        return "send image message";
      }

      @Override
      public void send() throws IOException {
        if (mediaId == null) {
          mediaId = api.upload(name, image.mediaType().mimeType(), bytes); // uploaded: a retry only sends
        }
        api.sendImage(chat.waId(), mediaId, caption);
      }
    };
  }

  @Override
  public void editText(WhatsAppChat chat, long messageId, String text) {
    throw new UnsupportedOperationException("WhatsApp messages cannot be edited by the Cloud API");
  }

  @Override
  public void showTyping(WhatsAppChat chat) {
    // no typing indicator without marking a message read; not worth a call per 5 seconds
  }
}
