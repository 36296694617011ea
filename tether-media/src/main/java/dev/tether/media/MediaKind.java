package dev.tether.media;

import java.util.Locale;
import java.util.Optional;

/**
 * What kind of media a channel message carried. A closed set: the six kinds that chat channels
 * distinguish. The {@link #label()} is how placeholders spell it ({@code Image}); the
 * {@link #wireName()} is how registry files spell it ({@code image}).
 */
public enum MediaKind {
  IMAGE("Image"),
  VIDEO("Video"),
  AUDIO("Audio"),
  DOCUMENT("Document"),
  STICKER("Sticker"),
  VOICE("Voice");

  private final String label;

  MediaKind(String label) {
    this.label = label;
  }

  /** The placeholder spelling, for example {@code Image}. */
  public String label() {
    return label;
  }

  /** The file spelling, for example {@code image}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind whose label or wire name is {@code text}, ignoring case; empty for anything else. */
  public static Optional<MediaKind> parse(String text) {
    if (text != null) {
      for (MediaKind kind : values()) {
        if (kind.label.equalsIgnoreCase(text)) {
          return Optional.of(kind);
        }
      }
    }
    return Optional.empty();
  }
}
