package dev.tether.chat;

import dev.tether.api.InlineImage;
import java.io.IOException;

/**
 * The narrow outbound side of a chat platform: what {@link AnswerDelivery} needs to put an answer
 * in a chat. Each method makes one attempt; the core retries ({@link ChatRetrier}) what fails with a
 * transient {@link ChannelException} or an {@link IOException}, and drops (with one log line) what
 * fails for good. Implementations must be thread-safe: typing runs on the core's scheduler.
 *
 * @param <C> the channel's chat
 */
public interface ChatSender<C> {
  /** The longest text one message may carry, in UTF-16 code units (Telegram 4096). */
  int textLimit();

  /**
   * The longest text that may go as the caption of an answer's last image so that the answer is
   * one unit in the chat; 0 when the platform has no captions worth using.
   */
  int captionLimit();

  /** Sends one text message; returns the platform's message id for live edits (0 when it has none). */
  long sendText(C chat, String text) throws IOException;

  /** The name of the call that sends text, for log lines ({@code sendMessage}, {@code chat.postMessage}). */
  default String textCall() {
    return "send text";
  }

  /** The name of the call that edits text, for log lines. */
  default String editCall() {
    return "edit text";
  }

  /**
   * One image of an answer, decoded and ready to send: the core sends it with retries, so it is
   * prepared once and {@link #send sent} until the platform takes it.
   */
  interface ImageUpload {
    /** The platform call that sends it, for log lines ({@code sendPhoto}, {@code files.completeUploadExternal}). */
    String call();

    /** One attempt to send it. */
    void send() throws IOException;
  }

  /**
   * Prepares image {@code index} (zero-based) of an answer for {@code chat}, with {@code caption}
   * (null for none). The image was {@link AnswerImages#check checked}.
   */
  ImageUpload prepareImage(C chat, InlineImage image, int index, String caption);

  /**
   * Replaces the text of message {@code messageId} (a live draft). Platforms without edits throw
   * {@link UnsupportedOperationException}; the core then never uses live edits with them.
   */
  void editText(C chat, long messageId, String text) throws IOException;

  /** Whether a refused edit means only that the text was already the same (Telegram's "message is not modified"). */
  default boolean unchangedEdit(ChannelException e) {
    return false;
  }

  /** Shows "typing" in the chat once; a failure is logged by the core and not retried. */
  void showTyping(C chat) throws IOException;

  /**
   * The key live-edit pacing counts by: edits of all drafts with the same key share one interval
   * (Telegram paces a whole chat, topics included). Default: the chat itself.
   */
  default Object paceKey(C chat) {
    return chat;
  }
}
