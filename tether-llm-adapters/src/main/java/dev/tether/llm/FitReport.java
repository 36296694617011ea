package dev.tether.llm;

import dev.tether.api.MediaType;
import java.util.List;
import java.util.Objects;

/**
 * What automatic fitting changed, image by image; empty when nothing was changed or fitting was
 * off. Immutable.
 */
public record FitReport(List<Change> changes) {
  private static final FitReport EMPTY = new FitReport(List.of());

  public FitReport {
    changes = List.copyOf(changes);
  }

  public static FitReport empty() {
    return EMPTY;
  }

  public boolean isEmpty() {
    return changes.isEmpty();
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
