package dev.tether.cli;

import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.mcp.ChannelMediaClient;
import dev.tether.media.MediaAnswer;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaItem;
import dev.tether.media.MediaPlaceholder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * What the demo agent does with lazy media: when a message announces media (its payload's
 * {@code media} field, never placeholders typed into text) and its own words ask about it (a
 * question, or words such as "describe", "look", "photo"), it fetches the announced images
 * through the channel bridge ({@link ChannelMediaClient}) and hands them to the replier as if they
 * had come with the message; anything else it fetched or failed to fetch becomes a note. A message
 * that does not ask fetches nothing, so a busy group costs no downloads. Thread-safe.
 */
final class MediaPrefetch {
  private static final Pattern ASKS = Pattern.compile(
      "\\?|\\b(what|describe|look|see|show|tell|read|photo|picture|pic|image|screenshot)s?\\b", Pattern.CASE_INSENSITIVE);
  private static final long FETCH_TIMEOUT_S = 90;

  private final ChannelMediaClient media;
  private final Limits limits = Limits.defaults();

  MediaPrefetch(ChannelMediaClient media) {
    this.media = media;
  }

  /** The message to answer (with fetched images added) and the notes to say first. */
  record Result(Payload.UserMessage message, List<String> notes) {}

  /** Whether the message's own words (its text without placeholders) ask about its media. */
  static boolean asksAbout(String text) {
    List<MediaPlaceholder> found = MediaPlaceholder.findAll(text);
    StringBuilder words = new StringBuilder(found.isEmpty() ? text : text.substring(0, Math.max(0, text.indexOf('['))));
    for (MediaPlaceholder p : found) {
      words.append(' ').append(p.caption()); // the sender's words, not the file's name or type
    }
    return ASKS.matcher(words.toString().toLowerCase(Locale.ROOT)).find();
  }

  Result apply(SessionKey session, Payload.UserMessage message) throws InterruptedException {
    List<MediaItem> items = MediaFrames.mediaOf(message);
    if (items.isEmpty() || !asksAbout(message.text())) {
      return new Result(message, List.of());
    }
    List<Image> images = new ArrayList<>(message.images());
    List<String> notes = new ArrayList<>();
    for (MediaItem item : items) {
      if (MediaType.parse(item.mimeType()).isEmpty()) {
        notes.add("ref:" + item.ref() + " is " + item.mimeType() + ", not an image, so I did not fetch it.");
        continue;
      }
      if (images.size() >= limits.maxImagesPerMessage()) {
        notes.add("ref:" + item.ref() + " was not fetched: I look at " + limits.maxImagesPerMessage() + " images at most.");
        continue;
      }
      try {
        MediaAnswer answer = media.fetch(item.ref(), Optional.of(session)).get(FETCH_TIMEOUT_S, TimeUnit.SECONDS);
        if (answer instanceof MediaAnswer.Fetched f) {
          images.add(f.image());
          notes.add("I fetched ref:" + item.ref() + (item.fileName() == null ? "" : " (" + item.fileName() + ")") + ".");
        } else if (answer instanceof MediaAnswer.Saved s) {
          notes.add("ref:" + item.ref() + " is too large to look at here; the bridge saved it to " + s.path() + ".");
        } else if (answer instanceof MediaAnswer.Failed e) {
          notes.add("I could not fetch ref:" + item.ref() + ": " + e.code() + " " + e.message());
        }
      } catch (ExecutionException | TimeoutException e) {
        notes.add("I could not fetch ref:" + item.ref() + ": " + DemoAgent.rootMessage(e));
      }
    }
    return new Result(new Payload.UserMessage(message.text(), images, message.user(), message.extra()), notes);
  }
}
