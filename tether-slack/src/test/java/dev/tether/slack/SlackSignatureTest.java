package dev.tether.slack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import dev.tether.chat.ChatSecret;
import dev.tether.slack.internal.SlackSignature;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SlackSignatureTest {
  private static final Clock NOW = Clock.fixed(Instant.ofEpochSecond(1_531_420_618), ZoneOffset.UTC);
  private final SlackSignature signature = new SlackSignature(ChatSecret.of("signing secret", "8f742231b10e8888abcd99yyyzzz85a5"), NOW);

  @Test
  void slacksDocumentedExample_verifies() {
    String body = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V"
        + "&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text="
        + "&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN"
        + "&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    assertNull(signature.refusal("1531420618", "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
        body.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void timestampsOutsideFiveMinutes_malformedHeaders_andTamperedBodies_areRefused() {
    byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
    String good = "v0=" + signature.sign("1531420618", body);
    assertNull(signature.refusal("1531420618", good, body));
    assertNotNull(signature.refusal("1531420618", good, "{ }".getBytes(StandardCharsets.UTF_8)));
    assertNotNull(signature.refusal(null, good, body));
    assertNotNull(signature.refusal("soon", good, body));
    assertEquals("a timestamp outside the five-minute window (a replay or a wrong clock)",
        signature.refusal("1531420919", "v0=" + signature.sign("1531420919", body), body));
  }

  @Test
  void anyOffsetWithinTheWindow_verifies_andAnyOutside_isRefused() {
    qt().forAll(integers().between(-1000, 1000), strings().basicLatinAlphabet().ofLengthBetween(0, 50)).checkAssert((offset, text) -> {
      byte[] body = text.getBytes(StandardCharsets.UTF_8);
      String ts = Long.toString(1_531_420_618L + offset);
      String refusal = signature.refusal(ts, "v0=" + signature.sign(ts, body), body);
      assertEquals(Math.abs(offset) <= 300, refusal == null, offset + ": " + refusal);
    });
  }
}
