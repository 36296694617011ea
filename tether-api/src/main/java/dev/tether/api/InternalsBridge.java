package dev.tether.api;

import dev.tether.api.internal.ApiInternals;
import dev.tether.api.internal.PlainStringParser;
import java.nio.ByteBuffer;

/** Gives the other tether modules zero-copy access to payload bytes; see {@link ApiInternals}. */
final class InternalsBridge implements ApiInternals.Bridge {
  @Override
  public byte[] array(RawJson json) {
    return json.array;
  }

  @Override
  public int offset(RawJson json) {
    return json.offset;
  }

  @Override
  public RawJson wrapTrusted(byte[] array, int offset, int length) {
    return new RawJson(array, offset, length);
  }

  @Override
  public Frame readShared(byte[] buffer, int offset, int length) {
    return FrameReader.readValidated(buffer, offset, length);
  }

  @Override
  public ByteBuffer plainBase64(InlineImage image) {
    return image.plainView();
  }

  @Override
  public void markImagesVerified(RawJson payload, MediaType[] types, int[] starts, int[] ends) {
    payload.markImagesVerified(new VerifiedImages(types.clone(), starts.clone(), ends.clone()));
  }

  @Override
  public void proveStrings(RawJson json, PlainStringParser parser) {
    VerifiedImages v = json.verifiedImages();
    if (v != null) {
      parser.proven(json.offset, v.starts(), v.ends());
    }
  }

  @Override
  public boolean verified(InlineImage image) {
    return image.verified();
  }
}
