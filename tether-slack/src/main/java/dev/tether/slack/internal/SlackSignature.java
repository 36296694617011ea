package dev.tether.slack.internal;

import dev.tether.chat.ChatSecret;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Slack's request signing, version {@code v0}: {@code X-Slack-Signature} must be
 * {@code v0=} and the hex HMAC-SHA256, keyed with the app's signing secret, of
 * {@code v0:<X-Slack-Request-Timestamp>:<body>}; the timestamp must be within
 * {@link #WINDOW} of now, so a captured delivery cannot be replayed later. Compared in constant
 * time. Thread-safe.
 */
public final class SlackSignature {
  /** How far a request's timestamp may be from now: Slack's advice, five minutes. */
  public static final Duration WINDOW = Duration.ofMinutes(5);

  private final ChatSecret secret;
  private final Clock clock;

  public SlackSignature(ChatSecret secret, Clock clock) {
    this.secret = Objects.requireNonNull(secret, "secret");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Why the delivery is refused, or null when its signature and timestamp are good. */
  public String refusal(String timestamp, String signature, byte[] body) {
    if (timestamp == null || signature == null) {
      return "no X-Slack-Request-Timestamp or X-Slack-Signature";
    }
    long ts;
    try {
      ts = Long.parseLong(timestamp.strip());
    } catch (NumberFormatException e) {
      return "a malformed X-Slack-Request-Timestamp";
    }
    if (Math.abs(clock.instant().getEpochSecond() - ts) > WINDOW.toSeconds()) {
      return "a timestamp outside the five-minute window (a replay or a wrong clock)";
    }
    byte[] expected = ("v0=" + sign(timestamp.strip(), body)).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(expected, signature.strip().getBytes(StandardCharsets.US_ASCII))) {
      return "a bad signature";
    }
    return null;
  }

  /** The hex signature of {@code body} sent at {@code timestamp} (also what tests sign with). */
  public String sign(String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.reveal().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update(("v0:" + timestamp + ":").getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }
}
