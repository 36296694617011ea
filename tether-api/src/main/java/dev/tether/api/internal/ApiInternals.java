package dev.tether.api.internal;

import dev.tether.api.RawJson;
import java.util.Objects;

/**
 * Not API. Zero-copy access to the bytes behind a {@link RawJson} for the other tether modules
 * (validator, store, adapters), which would otherwise have to copy megabytes of image data.
 *
 * <p>Code outside tether must not use this class: it breaks the immutability that
 * {@code RawJson} promises. It may change in any release.
 */
public final class ApiInternals {
  /** Implemented inside {@code dev.tether.api}. */
  public interface Bridge {
    byte[] array(RawJson json);

    int offset(RawJson json);

    /** Wraps bytes that the caller owns, has checked to be one JSON value, and will never change. */
    RawJson wrapTrusted(byte[] array, int offset, int length);

    /**
     * Reads a frame whose payload shares {@code buffer}, which the caller gives up. For bytes a
     * validator has passed or the SDK stored itself: the surrogate scan is skipped and a missing
     * {@code v} reads as 1.
     */
    dev.tether.api.Frame readShared(byte[] buffer, int offset, int length);

    /** See {@link ApiInternals#readAnswer}. */
    Answer readAnswer(String type, RawJson payload);
  }

  /**
   * An answer's payload ({@code assistant.done} or {@code assistant.message}) as {@link
   * dev.tether.api.Frame#payloadView()} reads it, with each image's base64 left in the payload.
   *
   * @param text the answer's text
   * @param images its inline images, in order
   */
  public record Answer(String text, java.util.List<InlineImage> images) {
    public Answer {
      Objects.requireNonNull(text, "text");
      images = java.util.List.copyOf(images);
    }
  }

  private static volatile Bridge bridge;

  private ApiInternals() {}

  /** Called once, from {@code RawJson}'s static initializer. */
  public static void install(Bridge implementation) {
    if (bridge != null) {
      throw new IllegalStateException("the tether API bridge is already installed");
    }
    bridge = Objects.requireNonNull(implementation);
  }

  /** The backing array of {@code json}; its bytes start at {@link #offset(RawJson)}. Never write to it. */
  public static byte[] array(RawJson json) {
    return bridge().array(json);
  }

  public static int offset(RawJson json) {
    return bridge().offset(json);
  }

  /** See {@link Bridge#wrapTrusted}. */
  public static RawJson wrapTrusted(byte[] array, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, array.length);
    return bridge().wrapTrusted(array, offset, length);
  }

  /** See {@link Bridge#readShared}. The caller has already checked the size limit. */
  public static dev.tether.api.Frame readShared(byte[] buffer, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, buffer.length);
    return bridge().readShared(buffer, offset, length);
  }

  /**
   * Reads an {@code assistant.done} or {@code assistant.message} frame's payload by the rules and
   * with the errors of {@link dev.tether.api.Frame#payloadView()}, but without a String copy of
   * each image's base64: a consumer that decodes the images (the Telegram bridge) reads them from
   * the payload's bytes.
   *
   * @throws dev.tether.api.TetherException where {@code payloadView()} throws
   * @throws IllegalArgumentException for a frame of another type
   */
  public static Answer readAnswer(dev.tether.api.Frame frame) {
    return bridge().readAnswer(frame.type(), frame.payload());
  }

  private static Bridge bridge() {
    Bridge b = bridge;
    if (b == null) {
      // Initialising RawJson installs the bridge.
      Objects.requireNonNull(RawJson.EMPTY_OBJECT);
      b = bridge;
    }
    return b;
  }
}
