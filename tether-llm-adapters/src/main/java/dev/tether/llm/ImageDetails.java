package dev.tether.llm;

import dev.tether.api.Conversation;
import dev.tether.api.Part;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The detail of each image of one conversation being written: {@link RequestOptions#detailOf}
 * by its index in {@link Conversation#images()}, looked up by the image part's identity (the
 * writers see the very parts of the conversation). An image part object that appears at two
 * indices gets the detail of the first. One per write; not thread-safe.
 */
final class ImageDetails {
  private final Map<Part.Image, ImageDetail> byImage;
  private final ImageDetail fallback;

  private ImageDetails(Map<Part.Image, ImageDetail> byImage, ImageDetail fallback) {
    this.byImage = byImage;
    this.fallback = fallback;
  }

  static ImageDetails of(Conversation conversation, RequestOptions options) {
    if (options.imageDetails().isEmpty()) {
      return new ImageDetails(Map.of(), options.detail());
    }
    Map<Part.Image, ImageDetail> map = new IdentityHashMap<>();
    List<Part.Image> images = conversation.images();
    for (int i = 0; i < images.size(); i++) {
      map.putIfAbsent(images.get(i), options.detailOf(i));
    }
    return new ImageDetails(map, options.detail());
  }

  ImageDetail of(Part.Image image) {
    return byImage.getOrDefault(image, fallback);
  }
}
