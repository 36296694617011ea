package dev.tether.telegram.internal;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/**
 * The Bot API objects the bridge reads, with the Bot API's field names. Unknown fields are
 * ignored (the API adds fields in every release); optional fields are null when absent. Only the
 * fields the bridge uses are modelled.
 */
public final class BotTypes {
  private BotTypes() {}

  /**
   * An incoming update. At most one of its optional parts is present; {@code message} is the only
   * one the bridge handles. {@code kind} names the part the update carries ({@code message},
   * {@code edited_message}, {@code poll}, a type newer than this code...) for the skip log line;
   * {@code message} is null for every other kind and for a message whose fields have the wrong
   * JSON types.
   */
  public record Update(long updateId, String kind, Message message) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Message(
      @JsonProperty("message_id") long messageId,
      @JsonProperty("message_thread_id") Long messageThreadId,
      @JsonProperty("is_topic_message") Boolean isTopicMessage,
      @JsonProperty("from") User from,
      @JsonProperty("chat") Chat chat,
      @JsonProperty("text") String text,
      @JsonProperty("caption") String caption,
      @JsonProperty("photo") List<PhotoSize> photo,
      @JsonProperty("document") Document document,
      @JsonProperty("media_group_id") String mediaGroupId,
      @JsonProperty("voice") MediaFile voice,
      @JsonProperty("audio") MediaFile audio,
      @JsonProperty("video") MediaFile video,
      @JsonProperty("sticker") Sticker sticker) {

    /** Whether the fields the bridge reads are there and usable: a chat, and no null photo size. */
    public boolean isWellFormed() {
      return chat != null && (photo == null || photo.stream().allMatch(Objects::nonNull));
    }

    /** Whether the message carries something the bridge forwards: text, a photo or a document. */
    public boolean hasContent() {
      return text != null || (photo != null && !photo.isEmpty()) || document != null;
    }

    /** The forum topic, only when the message is in one ({@code is_topic_message}). */
    public Long topic() {
      return Boolean.TRUE.equals(isTopicMessage) ? messageThreadId : null;
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Chat(@JsonProperty("id") long id, @JsonProperty("type") String type) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record User(
      @JsonProperty("id") long id,
      @JsonProperty("first_name") String firstName,
      @JsonProperty("username") String username) {}

  /** One size of a photo; {@code file_size} is optional. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record PhotoSize(
      @JsonProperty("file_id") String fileId,
      @JsonProperty("width") int width,
      @JsonProperty("height") int height,
      @JsonProperty("file_size") Long fileSize) {}

  /** A general file; {@code mime_type} and {@code file_size} are optional. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Document(
      @JsonProperty("file_id") String fileId,
      @JsonProperty("file_name") String fileName,
      @JsonProperty("mime_type") String mimeType,
      @JsonProperty("file_size") Long fileSize) {}

  /**
   * A voice note, audio file or video: every field optional but {@code file_id}; {@code duration}
   * in seconds.
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record MediaFile(
      @JsonProperty("file_id") String fileId,
      @JsonProperty("file_name") String fileName,
      @JsonProperty("mime_type") String mimeType,
      @JsonProperty("file_size") Long fileSize,
      @JsonProperty("duration") Integer duration) {}

  /** A sticker: WebP when static, TGS when animated, WebM when a video. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Sticker(
      @JsonProperty("file_id") String fileId,
      @JsonProperty("file_size") Long fileSize,
      @JsonProperty("is_animated") Boolean isAnimated,
      @JsonProperty("is_video") Boolean isVideo,
      @JsonProperty("emoji") String emoji) {}

  /** The answer to {@code getFile}: {@code file_path} is valid for at least an hour. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record File(
      @JsonProperty("file_id") String fileId,
      @JsonProperty("file_size") Long fileSize,
      @JsonProperty("file_path") String filePath) {}

  /** The part of a sent message the bridge needs: its id, for later edits. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Sent(@JsonProperty("message_id") long messageId) {}
}
