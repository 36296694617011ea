package dev.tether.telegram.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicLong;

/** Builds Bot API {@code Message} objects as Telegram sends them, for {@link RecordingBotApi#addMessage}. */
public final class TgMessages {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final AtomicLong MESSAGE_IDS = new AtomicLong(100);

  private TgMessages() {}

  public static ObjectNode base(long chatId) {
    ObjectNode m = JSON.createObjectNode()
        .put("message_id", MESSAGE_IDS.incrementAndGet())
        .put("date", 1_700_000_000L);
    m.putObject("from").put("id", 777L).put("is_bot", false).put("first_name", "Alice").put("username", "alice");
    m.putObject("chat").put("id", chatId).put("type", chatId < 0 ? "supergroup" : "private");
    return m;
  }

  public static ObjectNode text(long chatId, String text) {
    return base(chatId).put("text", text);
  }

  /** A photo in sizes of the given file ids (smallest first, as Telegram lists them), each with its declared size or null. */
  public static ObjectNode photo(long chatId, String caption, Object... fileIdAndSize) {
    ObjectNode m = base(chatId);
    ArrayNode sizes = m.putArray("photo");
    for (int i = 0; i < fileIdAndSize.length; i += 2) {
      ObjectNode s = sizes.addObject()
          .put("file_id", (String) fileIdAndSize[i])
          .put("file_unique_id", "u" + fileIdAndSize[i])
          .put("width", 90 * (i / 2 + 1))
          .put("height", 60 * (i / 2 + 1));
      if (fileIdAndSize[i + 1] != null) {
        s.put("file_size", ((Number) fileIdAndSize[i + 1]).longValue());
      }
    }
    if (caption != null) {
      m.put("caption", caption);
    }
    return m;
  }

  public static ObjectNode document(long chatId, String caption, String fileId, String fileName, String mimeType, Long size) {
    ObjectNode m = base(chatId);
    ObjectNode d = m.putObject("document").put("file_id", fileId).put("file_unique_id", "u" + fileId).put("file_name", fileName);
    if (mimeType != null) {
      d.put("mime_type", mimeType);
    }
    if (size != null) {
      d.put("file_size", size);
    }
    if (caption != null) {
      m.put("caption", caption);
    }
    return m;
  }

  public static ObjectNode inAlbum(ObjectNode message, String mediaGroupId) {
    return message.put("media_group_id", mediaGroupId);
  }

  public static ObjectNode inTopic(ObjectNode message, long threadId) {
    return message.put("message_thread_id", threadId).put("is_topic_message", true);
  }
}
