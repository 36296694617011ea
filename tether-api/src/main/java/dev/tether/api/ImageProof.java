package dev.tether.api;

import java.util.Objects;

/**
 * Proof that one image's base64 passed {@code FrameValidator} (tether-images) as part of a frame:
 * strict base64, no {@code data:} prefix, and a signature that matches {@link #mediaType()}.
 * Consumers (provider adapters, chat egress) skip those checks for an image that carries it and
 * still apply their own rules (sizes, dimensions).
 *
 * <p>It cannot be forged: there is no public constructor, only the validator and the store's read
 * path make one (through tether's non-exported internal package), and a proof covers only the exact
 * {@code String} instance it was made for (compared by identity, and strings are immutable) under
 * the one media type that was checked. Handing it on with other text or another type proves nothing.
 */
public final class ImageProof {
  private final MediaType mediaType;
  private final String data;

  ImageProof(MediaType mediaType, String data) {
    this.mediaType = Objects.requireNonNull(mediaType, "mediaType");
    this.data = Objects.requireNonNull(data, "data");
  }

  /** The media type the image's signature was checked against. */
  public MediaType mediaType() {
    return mediaType;
  }

  /** Whether this proof covers exactly the text {@code data} (the same instance) declared as {@code type}. */
  public boolean covers(MediaType type, String data) {
    return this.mediaType == type && this.data == data;
  }

  @Override
  public String toString() {
    return "ImageProof[" + mediaType + "]";
  }
}
