package dev.tether.whatsapp;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One WhatsApp conversation as a tether session: the customer's WhatsApp id (their phone number in
 * international form, digits only, as the webhook's {@code from} gives it). The Cloud API has only
 * one-to-one conversations, so the number is the session: session channel {@value #CHANNEL}, id
 * the number. Immutable.
 *
 * @param waId the customer's WhatsApp id, 5 to 20 digits
 */
public record WhatsAppChat(String waId) {
  /** The tether session channel of every WhatsApp conversation. */
  public static final String CHANNEL = "whatsapp";
  private static final Pattern WA_ID = Pattern.compile("[1-9][0-9]{4,19}");

  public WhatsAppChat {
    Objects.requireNonNull(waId, "waId");
    if (!isWaId(waId)) {
      throw new IllegalArgumentException("a WhatsApp id must be 5 to 20 digits without '+' but was '" + waId + "'");
    }
  }

  /** Whether {@code id} is a WhatsApp id: digits only, no leading zero or plus. */
  public static boolean isWaId(String id) {
    return id != null && WA_ID.matcher(id).matches();
  }

  /** The conversation a session id names, or empty when it is not a WhatsApp id. */
  public static Optional<WhatsAppChat> parse(String sessionId) {
    return isWaId(sessionId) ? Optional.of(new WhatsAppChat(sessionId)) : Optional.empty();
  }

  @Override
  public String toString() {
    return "whatsapp:" + waId;
  }
}
