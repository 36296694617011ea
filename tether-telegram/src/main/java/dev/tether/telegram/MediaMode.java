package dev.tether.telegram;

/**
 * How the bridge passes on the media of a chat's messages (photos, documents, voice notes, audio,
 * videos, stickers).
 *
 * <ul>
 *   <li>{@link #EAGER}: photos and image documents are downloaded as they arrive and travel as
 *       images in the {@code user.message}; other files are explained to the chat and not passed on.
 *   <li>{@link #LAZY}: nothing is downloaded as it arrives. The message text carries one
 *       placeholder per item ({@code [Image: photo.jpg, 2.4MB, image/jpeg, ref:tg_...] caption})
 *       and its payload the same references as structured data; the agent fetches what it needs
 *       with a {@code media.fetch} frame (see {@code dev.tether.media.MediaFrames}).
 * </ul>
 *
 * <p>Defaults: private chats eager (the agent sees a photo sent to it at once), groups and
 * supergroups lazy (a busy group's photos are not all downloaded).
 */
public enum MediaMode {
  EAGER,
  LAZY;

  /** The mode named {@code text} ({@code eager} or {@code lazy}, any case). */
  public static MediaMode parse(String text) {
    for (MediaMode mode : values()) {
      if (mode.name().equalsIgnoreCase(text == null ? "" : text.strip())) {
        return mode;
      }
    }
    throw new IllegalArgumentException("media mode must be eager or lazy but was '" + text + "'");
  }
}
