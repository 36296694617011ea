package dev.tether.llm;

import dev.tether.api.MediaType;
import java.util.List;
import java.util.Objects;

/**
 * What automatic fitting changed, image by image (empty when nothing was changed or fitting was
 * off), and the estimated input tokens of each image as it will be sent. Immutable.
 *
 * @param changes the fitted images
 * @param imageTokens one estimate per image whose dimensions could be read, in
 *     {@code Conversation.images()} order, after fitting, by the profile's
 *     {@link ImageTokenRule} and the image's detail; empty for a profile with
 *     {@link ImageTokenRule#NONE}
 */
public record FitReport(List<Change> changes, List<ImageTokens> imageTokens) {
  private static final FitReport EMPTY = new FitReport(List.of());

  /** A report of changes with no token estimates. */
  public FitReport(List<Change> changes) {
    this(changes, List.of());
  }

  public FitReport {
    changes = List.copyOf(changes);
    imageTokens = List.copyOf(imageTokens);
  }

  public static FitReport empty() {
    return EMPTY;
  }

  /** True when fitting changed nothing (whatever the estimates). */
  public boolean isEmpty() {
    return changes.isEmpty();
  }

  /** The sum of {@link #imageTokens()}. */
  public long totalImageTokens() {
    long total = 0;
    for (ImageTokens t : imageTokens) {
      total += t.tokens();
    }
    return total;
  }

  /**
   * The estimated tokens of one image.
   *
   * @param imageIndex zero-based, in {@code Conversation.images()} order
   * @param width pixels, as sent
   * @param height pixels, as sent
   * @param detail the detail it is sent with (read by OpenAI only)
   * @param tokens the estimate (see {@link ImageTokenRule})
   */
  public record ImageTokens(int imageIndex, int width, int height, ImageDetail detail, int tokens) {
    public ImageTokens {
      Objects.requireNonNull(detail, "detail");
    }
  }

  /**
   * One fitted image.
   *
   * @param imageIndex zero-based, in {@code Conversation.images()} order
   * @param from the declared type before
   * @param to the type after (PNG for a converted GIF)
   * @param bytesBefore decoded size before
   * @param bytesAfter decoded size after
   * @param widthBefore pixels, as decoded
   * @param heightBefore pixels, as decoded
   * @param widthAfter pixels
   * @param heightAfter pixels
   * @param reasons why, for example {@code "3.20 MiB over the 5 MiB limit"}
   */
  public record Change(int imageIndex, MediaType from, MediaType to, long bytesBefore, long bytesAfter,
      int widthBefore, int heightBefore, int widthAfter, int heightAfter, List<String> reasons) {
    public Change {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
      reasons = List.copyOf(reasons);
    }

    @Override
    public String toString() {
      return "image " + imageIndex + ": " + from.mimeType() + " " + widthBefore + "x" + heightBefore
          + " (" + bytesBefore + " bytes) -> " + to.mimeType() + " " + widthAfter + "x" + heightAfter
          + " (" + bytesAfter + " bytes), because " + String.join("; ", reasons);
    }
  }
}
