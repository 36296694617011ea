package dev.tether.slack.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A user's message from an Events API {@code event_callback} (the same JSON in Socket Mode's
 * {@code events_api} payload and in an HTTP delivery), with only the fields the bridge reads.
 * Bots' own messages ({@code bot_id}, subtype {@code bot_message}) and edits, deletions and joins
 * (any subtype but {@code file_share}) are not messages to forward: {@link #parse} skips them.
 *
 * @param eventId the delivery's {@code event_id}, for duplicate detection
 * @param channel the conversation id
 * @param user the sender's user id
 * @param text the message text (may be empty when it carries files)
 * @param ts the message's timestamp
 * @param threadTs the thread it is in: {@code thread_ts}, or its own {@code ts} when it starts one
 * @param files the attached files as the event describes them; nothing is downloaded
 */
public record SlackEvent(String eventId, String channel, String user, String text, String ts, String threadTs, List<SlackFile> files) {
  /** Most files of one message read; Slack allows 10 per message. */
  static final int MAX_FILES = 20;

  /**
   * One {@code event.files[]} item.
   *
   * @param size the byte size the event reports, or -1
   */
  public record SlackFile(String id, String name, long size, String mimeType, String urlPrivate) {}

  /** The message of an {@code event_callback} body, or empty when it is not a user's message to forward. */
  public static Optional<SlackEvent> parse(JsonNode callback) {
    if (callback == null || !"event_callback".equals(callback.path("type").asText())) {
      return Optional.empty();
    }
    JsonNode e = callback.path("event");
    if (!"message".equals(e.path("type").asText())) {
      return Optional.empty();
    }
    String subtype = e.path("subtype").asText("");
    if (e.hasNonNull("bot_id") || !subtype.isEmpty() && !"file_share".equals(subtype)) {
      return Optional.empty();
    }
    String channel = e.path("channel").asText("");
    String ts = e.path("ts").asText("");
    if (channel.isEmpty() || ts.isEmpty()) {
      return Optional.empty();
    }
    String thread = e.path("thread_ts").asText("");
    List<SlackFile> files = new ArrayList<>();
    for (JsonNode f : e.path("files")) {
      if (files.size() == MAX_FILES) {
        break;
      }
      files.add(new SlackFile(f.path("id").asText(""), f.path("name").isTextual() ? f.path("name").asText() : null,
          f.path("size").canConvertToLong() ? f.path("size").asLong() : -1, f.path("mimetype").asText(null),
          f.path("url_private").asText(null)));
    }
    return Optional.of(new SlackEvent(callback.path("event_id").asText(""), channel, e.path("user").asText(""),
        e.path("text").asText(""), ts, thread.isEmpty() ? ts : thread, List.copyOf(files)));
  }
}
