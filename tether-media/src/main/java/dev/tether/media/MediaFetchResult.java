package dev.tether.media;

import dev.tether.api.Image;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What {@link MediaFetcher#fetch} produced: an image small enough to show the model directly, or
 * a file saved under the media directory. A closed set; dispatch over both. Immutable.
 */
public sealed interface MediaFetchResult permits MediaFetchResult.InlineImage, MediaFetchResult.SavedFile {

  /** The reference that was fetched. */
  MediaReference ref();

  /** A validated image (type matches its signature, within the image size limit) to return as image content. */
  record InlineImage(MediaReference ref, Image image) implements MediaFetchResult {
    public InlineImage {
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(image, "image");
    }
  }

  /**
   * A file saved under the media directory, for media that is not an image or is larger than the
   * inline threshold.
   *
   * @param path the absolute path of the saved file
   * @param size its size in bytes
   */
  record SavedFile(MediaReference ref, Path path, long size) implements MediaFetchResult {
    public SavedFile {
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(path, "path");
    }
  }
}
