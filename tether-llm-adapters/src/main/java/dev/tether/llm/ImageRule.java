package dev.tether.llm;

import dev.tether.api.ErrorCode;

/** The provider rule an image broke; each maps to the wire {@link ErrorCode} closest to it. */
public enum ImageRule {
  /** The image data is not well-formed standard base64, or carries a {@code data:} prefix. */
  INVALID_DATA(ErrorCode.INVALID_BASE64),
  /** The declared media type does not match the image's signature bytes. */
  TYPE_MISMATCH(ErrorCode.MEDIA_TYPE_MISMATCH),
  /** The provider does not take this format. */
  FORMAT(ErrorCode.UNSUPPORTED_MEDIA_TYPE),
  /** The image is larger than the provider's per-image size limit. */
  SIZE(ErrorCode.IMAGE_TOO_LARGE),
  /** The image is wider or taller than the provider allows. */
  DIMENSIONS(ErrorCode.IMAGE_TOO_LARGE),
  /** The image sits where the provider takes none, such as an assistant turn for Claude or OpenAI. */
  PLACEMENT(ErrorCode.IMAGES_NOT_ALLOWED),
  /** The request holds more images than the provider allows; names the first one too many. */
  COUNT(ErrorCode.TOO_MANY_IMAGES),
  /** The images of the request together exceed the provider's total; names the image that tips it. */
  TOTAL_SIZE(ErrorCode.FRAME_IMAGES_TOO_LARGE);

  private final ErrorCode errorCode;

  ImageRule(ErrorCode errorCode) {
    this.errorCode = errorCode;
  }

  /** The wire error code for this rule, for HTTP and MCP error bodies. */
  public ErrorCode errorCode() {
    return errorCode;
  }
}
