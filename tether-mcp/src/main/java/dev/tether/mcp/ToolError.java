package dev.tether.mcp;

import dev.tether.api.TetherException;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A tool call that fails for a reason the caller can act on. It becomes an MCP tool result with
 * {@code isError: true} (never a JSON-RPC error), so the model sees the code and the sentence and
 * the server goes on serving.
 *
 * <p>Codes are stable strings: the {@link dev.tether.api.ErrorCode} names for frame and image
 * rules, the media reasons of {@code dev.tether.media.MediaException} for the media and
 * attachment tools, plus the tool-level codes below.
 */
final class ToolError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An argument is missing, unknown, of the wrong JSON type, or out of range. */
  static final String INVALID_ARGUMENTS = "INVALID_ARGUMENTS";
  /** The host does not know the instance. */
  static final String UNKNOWN_INSTANCE = "UNKNOWN_INSTANCE";
  /** The host refused the caller's credentials (HTTP 401/403); retrying will not help. */
  static final String UNAUTHORIZED = "UNAUTHORIZED";
  /** The host has no such resource (HTTP 404, other than an unknown instance). */
  static final String NOT_FOUND = "NOT_FOUND";
  /** The host or a download could not be reached; trying again later may work. */
  static final String UNAVAILABLE = "UNAVAILABLE";
  /** A bug on our side; the message says what failed. */
  static final String INTERNAL = "INTERNAL";

  private final String code;
  private final int imageIndex;

  private ToolError(String code, String message, int imageIndex, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.code = Objects.requireNonNull(code, "code");
    this.imageIndex = imageIndex;
  }

  static ToolError of(String code, String message) {
    return new ToolError(code, message, -1, null);
  }

  static ToolError of(String code, String message, Throwable cause) {
    return new ToolError(code, message, -1, cause);
  }

  static ToolError invalidArguments(String message) {
    return of(INVALID_ARGUMENTS, message);
  }

  /** The validator's verdict, keeping its code and image index. */
  static ToolError from(TetherException e) {
    return new ToolError(e.code().name(), e.getMessage(), e.imageIndex().orElse(-1), e);
  }

  String code() {
    return code;
  }

  OptionalInt imageIndex() {
    return imageIndex < 0 ? OptionalInt.empty() : OptionalInt.of(imageIndex);
  }
}
