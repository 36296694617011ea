package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one error table: every code's HTTP status and retryability, as the transports use them. */
class ErrorCodeTest {
  @Test
  void everyCode_isAnHttpErrorStatus_andOnlyTheHostsOwnStateIsRetryable() {
    for (ErrorCode code : ErrorCode.values()) {
      int status = code.httpStatus();
      assertTrue(status >= 400 && status <= 599, code + " -> " + status);
      assertEquals(code.kind() == ErrorCode.Kind.HOST, code.retryable(), code.toString());
      if (code.kind() != ErrorCode.Kind.HOST && code != ErrorCode.NOT_IMPLEMENTED && code != ErrorCode.NO_DOWNLOADER) {
        assertTrue(status < 500, "a caller's fault is a 4xx: " + code + " -> " + status);
      }
    }
  }

  @Test
  void statuses_matchTheHttpApiContract() {
    Map<ErrorCode, Integer> contract = Map.of(
        ErrorCode.MALFORMED_FRAME, 400, ErrorCode.FRAME_TOO_LARGE, 413, ErrorCode.IMAGE_TOO_LARGE, 413,
        ErrorCode.UNAUTHORIZED, 401, ErrorCode.INSTANCE_NOT_FOUND, 404, ErrorCode.URI_TOO_LONG, 414,
        ErrorCode.STORE_FULL, 507, ErrorCode.TOO_MANY_INSTANCES, 503, ErrorCode.INTERNAL, 500,
        ErrorCode.INSUFFICIENT_STORAGE, 507);
    contract.forEach((code, status) -> assertEquals(status, code.httpStatus(), code.toString()));
    assertEquals(429, ErrorCode.RATE_LIMITED.httpStatus());
    assertTrue(ErrorCode.RATE_LIMITED.retryable(), "a rate-limited request succeeds unchanged later");
  }

  @Test
  void parse_readsBackEveryNameAndNothingElse() {
    for (ErrorCode code : ErrorCode.values()) {
      assertEquals(Optional.of(code), ErrorCode.parse(code.name()));
    }
    assertEquals(Optional.empty(), ErrorCode.parse("HTTP_500"));
    assertEquals(Optional.empty(), ErrorCode.parse("malformed_frame"));
    assertEquals(Optional.empty(), ErrorCode.parse(null));
  }
}
