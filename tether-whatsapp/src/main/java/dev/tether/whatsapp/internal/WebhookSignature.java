package dev.tether.whatsapp.internal;

import dev.tether.chat.ChatSecret;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Meta's webhook signing: {@code X-Hub-Signature-256} must be {@code sha256=} and the hex
 * HMAC-SHA256 of the raw body keyed with the app secret; compared in constant time. Thread-safe.
 */
public final class WebhookSignature {
  private final ChatSecret appSecret;

  public WebhookSignature(ChatSecret appSecret) {
    this.appSecret = Objects.requireNonNull(appSecret, "appSecret");
  }

  /** Whether {@code header} signs {@code body}. */
  public boolean verifies(String header, byte[] body) {
    if (header == null) {
      return false;
    }
    byte[] expected = ("sha256=" + sign(body)).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, header.strip().getBytes(StandardCharsets.US_ASCII));
  }

  /** The hex signature of {@code body} (also what tests sign with). */
  public String sign(byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(appSecret.reveal().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }
}
