package dev.tether.images.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.api.ToolPayload;
import dev.tether.api.internal.ApiInternals;

/**
 * The validator's rules for the tool frame types ({@link ToolPayload#isToolType}): the payload
 * must read as its {@link ToolPayload} variant, every field within its bounds. Other types are
 * not judged here. The payload's bytes are read in place, never copied.
 */
public final class ToolFrameCheck {
  private ToolFrameCheck() {}

  /**
   * Checks the payload of a tool frame, {@code bytes[start, end)}; does nothing for other types.
   *
   * @throws TetherException {@link ErrorCode#MALFORMED_FRAME} naming the field that breaks a rule
   */
  public static void check(String type, byte[] bytes, int start, int end) {
    if (type == null || !ToolPayload.isToolType(type)) {
      return;
    }
    if (start < 0) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, type + " needs a payload object");
    }
    ToolPayload.read(type, ApiInternals.wrapTrusted(bytes, start, end - start));
  }
}
