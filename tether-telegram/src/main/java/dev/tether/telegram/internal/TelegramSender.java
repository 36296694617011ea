package dev.tether.telegram.internal;

import dev.tether.api.InlineImage;
import dev.tether.chat.ChannelException;
import dev.tether.chat.ChatSender;
import dev.tether.telegram.TelegramChat;
import java.io.IOException;
import java.util.Objects;

/**
 * The Bot API as the core's {@link ChatSender}: {@code sendMessage} (4096 characters),
 * {@code sendPhoto} or {@code sendDocument} ({@link PhotoUpload}, captions up to 1024 characters),
 * {@code editMessageText} for live drafts (paced per chat, topics included) and
 * {@code sendChatAction typing}. Thread-safe.
 */
final class TelegramSender implements ChatSender<TelegramChat> {
  static final int CAPTION_LIMIT = 1024;

  private final BotApi api;

  TelegramSender(BotApi api) {
    this.api = Objects.requireNonNull(api, "api");
  }

  @Override
  public int textLimit() {
    return TextSplitter.MESSAGE_LIMIT;
  }

  @Override
  public int captionLimit() {
    return CAPTION_LIMIT;
  }

  @Override
  public String textCall() {
    return "sendMessage";
  }

  @Override
  public String editCall() {
    return "editMessageText";
  }

  @Override
  public long sendText(TelegramChat chat, String text) throws IOException {
    return api.sendMessage(chat, text).messageId();
  }

  @Override
  public ImageUpload prepareImage(TelegramChat chat, InlineImage image, int index, String caption) {
    PhotoUpload upload = PhotoUpload.of(chat, image, index, caption);
    return new ImageUpload() {
      @Override
      public String call() {
        return upload.method();
      }

      @Override
      public void send() throws IOException {
        api.sendFile(upload);
      }
    };
  }

  @Override
  public void editText(TelegramChat chat, long messageId, String text) throws IOException {
    api.editMessageText(chat, messageId, text);
  }

  @Override
  public boolean unchangedEdit(ChannelException e) {
    return e.description().contains("not modified");
  }

  @Override
  public void showTyping(TelegramChat chat) throws IOException {
    api.sendChatAction(chat, "typing");
  }

  @Override
  public Object paceKey(TelegramChat chat) {
    return chat.chatId();
  }
}
