package dev.tether.mcp;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A tool call that fails for a reason the caller can act on. It becomes an MCP tool result with
 * {@code isError: true} (never a JSON-RPC error), so the model sees the code and the sentence and
 * the server goes on serving. The code is an {@link ErrorCode}; whether the model may retry the
 * same call is {@link ErrorCode#retryable()}.
 */
final class ToolError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;
  private final int imageIndex;

  private ToolError(ErrorCode code, String message, int imageIndex, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.code = Objects.requireNonNull(code, "code");
    this.imageIndex = imageIndex;
  }

  static ToolError of(ErrorCode code, String message) {
    return new ToolError(code, message, -1, null);
  }

  static ToolError of(ErrorCode code, String message, Throwable cause) {
    return new ToolError(code, message, -1, cause);
  }

  static ToolError invalidArguments(String message) {
    return of(ErrorCode.INVALID_ARGUMENT, message);
  }

  /** The validator's verdict, keeping its code and image index. */
  static ToolError from(TetherException e) {
    return new ToolError(e.code(), e.getMessage(), e.imageIndex().orElse(-1), e);
  }

  ErrorCode code() {
    return code;
  }

  OptionalInt imageIndex() {
    return imageIndex < 0 ? OptionalInt.empty() : OptionalInt.of(imageIndex);
  }
}
