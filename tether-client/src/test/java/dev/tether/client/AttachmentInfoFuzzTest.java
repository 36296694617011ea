package dev.tether.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tether.api.RawJson;
import java.time.Instant;
import java.util.List;

/**
 * The attachment notice from any text: {@link AttachmentInfo#payloadJson} is always valid JSON
 * whatever the names and types hold (quotes, backslashes, controls, lone surrogates), and
 * {@link AttachmentInfo#withoutNotices} removes every notice line it wrote, keeps text that holds
 * none, and is idempotent. In a normal {@code mvn test} Jazzer replays the seeds; run with
 * {@code JAZZER_FUZZ=1} to fuzz.
 */
class AttachmentInfoFuzzTest {
  @FuzzTest(maxDuration = "30s", maxExecutions = 200_000)
  void noticesAndPayload_roundTripAnyText(FuzzedDataProvider data) {
    String name = data.consumeString(60);
    String mime = data.consumeString(40);
    String text = data.consumeRemainingAsString();
    AttachmentInfo a = new AttachmentInfo(name, mime, name.length(), Instant.EPOCH);
    RawJson.of(AttachmentInfo.payloadJson(List.of(a, a))); // throws when it is not JSON

    String stripped = AttachmentInfo.withoutNotices(text);
    assertEquals(stripped, AttachmentInfo.withoutNotices(stripped));
    if (!text.contains("[Attachment: ")) {
      assertEquals(text.stripTrailing(), stripped);
    }
    if (name.indexOf('\n') < 0 && mime.indexOf('\n') < 0 && text.indexOf('\n') < 0 && !text.contains("[Attachment: ")) {
      String said = AttachmentInfo.withoutNotices(text + "\n" + a.notice());
      assertEquals(text.stripTrailing(), said);
      assertFalse(said.contains(a.notice()) && !text.contains(a.notice()));
    }
  }
}
