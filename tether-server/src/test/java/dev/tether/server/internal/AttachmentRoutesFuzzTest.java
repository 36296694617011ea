package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.sessions.SessionNames;

/**
 * The query parameters of the attachment routes from any text: a session and a name, or
 * {@code INVALID_ARGUMENT}; and the directory name of any session is one plain path segment (no
 * separator, never {@code .} or {@code ..}), so a hostile {@code session_id} cannot leave the
 * attachments directory. In a normal {@code mvn test} Jazzer replays the seeds; run with
 * {@code JAZZER_FUZZ=1} to fuzz.
 */
class AttachmentRoutesFuzzTest {
  @FuzzTest(maxDuration = "30s", maxExecutions = 200_000)
  void queryParameters_giveASessionWithAPlainDirectory_orInvalidArgument(FuzzedDataProvider data) {
    String channel = data.consumeBoolean() ? null : data.consumeString(40);
    String id = data.consumeBoolean() ? null : data.consumeString(1100);
    String name = data.consumeBoolean() ? null : data.consumeRemainingAsString();
    try {
      SessionKey s = AttachmentRoutes.session(channel, id);
      String dir = SessionNames.of(s);
      assertFalse(dir.isEmpty() || dir.equals(".") || dir.equals("..") || dir.contains("/") || dir.contains("\\")
          || dir.indexOf('\u0000') >= 0, dir);
      assertTrue(dir.length() <= 200, dir);
      assertEquals(channel == null ? "host" : channel, s.channel());
    } catch (TetherException e) {
      assertEquals(ErrorCode.INVALID_ARGUMENT, e.code());
    }
    try {
      assertEquals(name, AttachmentRoutes.uploadName(name));
    } catch (TetherException e) {
      assertEquals(ErrorCode.INVALID_ARGUMENT, e.code());
      assertTrue(name == null || name.isEmpty() || name.length() > AttachmentRoutes.MAX_PARAM_CHARS);
    }
  }
}
