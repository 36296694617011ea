package dev.tether.slack.internal;

import dev.tether.api.InlineImage;
import dev.tether.chat.AnswerImages;
import dev.tether.chat.ChatSender;
import dev.tether.slack.SlackChat;
import java.io.IOException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Slack's Web API as the core's {@link ChatSender}: {@code chat.postMessage} in the thread (text
 * split at 4,000 characters, Slack's advice for one message), images by the external upload flow
 * ({@code files.getUploadURLExternal}, the bytes to the upload URL, then
 * {@code files.completeUploadExternal} into the thread with the caption as its initial comment),
 * live drafts by {@code chat.update}. Slack has no bot typing indicator over the Web API, so
 * {@link #showTyping} does nothing. Thread-safe.
 */
final class SlackSender implements ChatSender<SlackChat> {
  /** Slack truncates a message beyond 40,000 characters and advises 4,000. */
  static final int TEXT_LIMIT = 4000;
  private static final Pattern TS = Pattern.compile("[0-9]{1,12}\\.[0-9]{6}");

  private final SlackApi api;

  SlackSender(SlackApi api) {
    this.api = Objects.requireNonNull(api, "api");
  }

  @Override
  public int textLimit() {
    return TEXT_LIMIT;
  }

  @Override
  public int captionLimit() {
    return TEXT_LIMIT;
  }

  @Override
  public String textCall() {
    return "chat.postMessage";
  }

  @Override
  public String editCall() {
    return "chat.update";
  }

  /** Returns the message's {@code ts} as a number (seconds and microseconds), or 0 when Slack's ts has another shape. */
  @Override
  public long sendText(SlackChat chat, String text) throws IOException {
    String ts = api.postMessage(chat.channel(), chat.threadTs(), text);
    return TS.matcher(ts).matches() ? Long.parseLong(ts.replace(".", "")) : 0;
  }

  @Override
  public ImageUpload prepareImage(SlackChat chat, InlineImage image, int index, String caption) {
    byte[] bytes = AnswerImages.decode(image);
    String name = "image-" + (index + 1) + "." + image.mediaType().extension();
    return new ImageUpload() {
      private SlackApi.UploadTarget target;

      @Override
      public String call() {
        return "files.completeUploadExternal";
      }

      @Override
      public void send() throws IOException {
        if (target == null) {
          SlackApi.UploadTarget t = api.uploadTarget(name, bytes.length);
          api.upload(t, bytes);
          target = t; // uploaded: a retry only completes it
        }
        api.completeUpload(target, name, chat.channel(), chat.threadTs(), caption);
      }
    };
  }

  @Override
  public void editText(SlackChat chat, long messageId, String text) throws IOException {
    String digits = Long.toString(messageId);
    String ts = digits.substring(0, digits.length() - 6) + "." + digits.substring(digits.length() - 6);
    api.update(chat.channel(), ts, text);
  }

  @Override
  public void showTyping(SlackChat chat) {
    // The Web API has no typing indicator for apps; the RTM one is gone.
  }

  @Override
  public Object paceKey(SlackChat chat) {
    return chat.channel();
  }
}
