package dev.tether.media;

import dev.tether.media.internal.MediaText;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Metadata about one piece of media that a channel received, kept so that an agent can fetch the
 * bytes later. Nothing here is downloaded: the channel fills in what its message carried.
 *
 * <p>Immutable and thread-safe; {@code downloadInfo} is copied. Unpaired UTF-16 surrogates in
 * the text fields become U+FFFD, so that every reference survives the registry file's UTF-8. The
 * constructor rejects values
 * that could not round-trip through the registry file or could break a placeholder with an
 * {@link IllegalArgumentException} naming the field.
 *
 * @param id unique reference id, 1 to 128 of {@code A-Z a-z 0-9 . _ -} (for example
 *     {@code wa_3EB0A1B2}); it appears in placeholders and saved file names
 * @param channel the channel that can download it, same alphabet, 1 to 64 characters
 *     ({@code whatsapp}, {@code telegram}, {@code slack})
 * @param chat the chat (JID, channel id) the message was in; may be empty
 * @param messageId the channel's message id; may be empty
 * @param kind what kind of media this is
 * @param mimeType the MIME type the channel reported ({@code image/jpeg}), never guessed
 * @param fileName the file name the channel reported, or null when it gave none
 * @param size the size in bytes the channel reported, or -1 when unknown
 * @param caption the caption text, empty when none
 * @param downloadInfo channel-specific data its {@link MediaDownloader} needs (a Telegram
 *     {@code file_id}, a Slack URL); it is written to the registry file, so treat that file as
 *     sensitive when this holds tokens
 * @param createdAt when the reference was made
 * @param ttl how long after {@code createdAt} the reference stays fetchable; positive
 */
public record MediaReference(
    String id,
    String channel,
    String chat,
    String messageId,
    MediaKind kind,
    String mimeType,
    String fileName,
    long size,
    String caption,
    Map<String, String> downloadInfo,
    Instant createdAt,
    Duration ttl) {

  /** The default time to live: 30 minutes, as in the lazy-media spec. */
  public static final Duration DEFAULT_TTL = Duration.ofMinutes(30);

  static final int MAX_ID_LENGTH = 128;
  static final int MAX_TEXT_LENGTH = 4096;
  static final int MAX_CAPTION_LENGTH = 64 * 1024;
  static final int MAX_DOWNLOAD_INFO_ENTRIES = 64;
  static final int MAX_DOWNLOAD_INFO_VALUE = 64 * 1024;

  public MediaReference {
    chat = chat == null ? null : MediaText.wellFormed(chat);
    messageId = messageId == null ? null : MediaText.wellFormed(messageId);
    fileName = fileName == null ? null : MediaText.wellFormed(fileName);
    caption = caption == null ? null : MediaText.wellFormed(caption);
    if (downloadInfo != null) {
      Map<String, String> clean = new HashMap<>();
      for (Map.Entry<String, String> e : downloadInfo.entrySet()) {
        clean.put(e.getKey() == null ? null : MediaText.wellFormed(e.getKey()),
            e.getValue() == null ? null : MediaText.wellFormed(e.getValue()));
      }
      downloadInfo = clean;
    }
    requireToken("id", id, MAX_ID_LENGTH);
    requireToken("channel", channel, 64);
    requireText("chat", chat, MAX_TEXT_LENGTH);
    requireText("messageId", messageId, MAX_TEXT_LENGTH);
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(mimeType, "mimeType");
    if (!MediaText.isMimeType(mimeType)) {
      throw new IllegalArgumentException("mimeType must look like type/subtype but was '"
          + MediaText.excerpt(mimeType) + "'");
    }
    if (fileName != null) {
      requireText("fileName", fileName, MAX_TEXT_LENGTH);
      if (fileName.isEmpty()) {
        fileName = null;
      }
    }
    if (size < -1) {
      throw new IllegalArgumentException("size must be >= 0, or -1 for unknown, but was " + size);
    }
    Objects.requireNonNull(caption, "caption");
    if (caption.length() > MAX_CAPTION_LENGTH) {
      throw new IllegalArgumentException("caption must be at most " + MAX_CAPTION_LENGTH
          + " characters but was " + caption.length());
    }
    downloadInfo = Map.copyOf(downloadInfo);
    if (downloadInfo.size() > MAX_DOWNLOAD_INFO_ENTRIES) {
      throw new IllegalArgumentException("downloadInfo must have at most " + MAX_DOWNLOAD_INFO_ENTRIES
          + " entries but had " + downloadInfo.size());
    }
    for (Map.Entry<String, String> e : downloadInfo.entrySet()) {
      requireText("downloadInfo key", e.getKey(), 256);
      if (e.getValue().length() > MAX_DOWNLOAD_INFO_VALUE) {
        throw new IllegalArgumentException("downloadInfo value of '" + MediaText.excerpt(e.getKey())
            + "' must be at most " + MAX_DOWNLOAD_INFO_VALUE + " characters");
      }
    }
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be > 0 but was " + ttl);
    }
  }

  /** A builder with the required parts; the rest default to empty, unknown and {@link #DEFAULT_TTL}. */
  public static Builder builder(String id, String channel, MediaKind kind, String mimeType) {
    return new Builder(id, channel, kind, mimeType);
  }

  /** When this reference stops being fetchable. Saturates instead of overflowing. */
  public Instant expiresAt() {
    try {
      return createdAt.plus(ttl);
    } catch (ArithmeticException | DateTimeException e) {
      return Instant.MAX;
    }
  }

  /** Whether the reference has expired at {@code now} (expiry is inclusive). */
  public boolean isExpiredAt(Instant now) {
    return !now.isBefore(expiresAt());
  }

  /** The placeholder that stands for this media in message text. */
  public MediaPlaceholder placeholder() {
    return MediaPlaceholder.of(this);
  }

  private static void requireToken(String name, String value, int max) {
    Objects.requireNonNull(value, name);
    if (!MediaText.isToken(value, max)) {
      throw new IllegalArgumentException(name + " must be 1 to " + max
          + " of A-Z a-z 0-9 . _ - but was '" + MediaText.excerpt(value) + "'");
    }
  }

  private static void requireText(String name, String value, int max) {
    Objects.requireNonNull(value, name);
    if (value.length() > max) {
      throw new IllegalArgumentException(name + " must be at most " + max + " characters but was " + value.length());
    }
    if (value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(name + " must not contain NUL characters");
    }
  }

  /** Builds a {@link MediaReference}; validation happens in {@link #build()}. Not thread-safe. */
  public static final class Builder {
    private final String id;
    private final String channel;
    private final MediaKind kind;
    private final String mimeType;
    private String chat = "";
    private String messageId = "";
    private String fileName;
    private long size = -1;
    private String caption = "";
    private Map<String, String> downloadInfo = Map.of();
    private Instant createdAt;
    private Duration ttl = DEFAULT_TTL;

    private Builder(String id, String channel, MediaKind kind, String mimeType) {
      this.id = id;
      this.channel = channel;
      this.kind = kind;
      this.mimeType = mimeType;
    }

    public Builder chat(String chat) {
      this.chat = chat;
      return this;
    }

    public Builder messageId(String messageId) {
      this.messageId = messageId;
      return this;
    }

    public Builder fileName(String fileName) {
      this.fileName = fileName;
      return this;
    }

    public Builder size(long size) {
      this.size = size;
      return this;
    }

    public Builder caption(String caption) {
      this.caption = caption;
      return this;
    }

    public Builder downloadInfo(Map<String, String> downloadInfo) {
      this.downloadInfo = downloadInfo;
      return this;
    }

    /** Defaults to the time {@link #build()} is called. */
    public Builder createdAt(Instant createdAt) {
      this.createdAt = createdAt;
      return this;
    }

    public Builder ttl(Duration ttl) {
      this.ttl = ttl;
      return this;
    }

    public MediaReference build() {
      return new MediaReference(id, channel, chat, messageId, kind, mimeType, fileName, size, caption,
          downloadInfo, createdAt == null ? Instant.now() : createdAt, ttl);
    }
  }
}
