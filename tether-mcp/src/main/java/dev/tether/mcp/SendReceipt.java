package dev.tether.mcp;

import java.util.Objects;

/**
 * What {@code tether_send} returns: the id of the message, its session, and the sequence number
 * the host gave it. Pass {@code ingressSeq} as {@code after_seq} to the first {@code tether_read}
 * to skip past the message itself without missing a reply that arrives before the read.
 *
 * @param msgId the message's {@code msg_id}; replies carry it, so it filters with
 *     {@code reply_to_msg_id}
 * @param sessionId the session on the {@code host} channel
 * @param ingressSeq the seq of the stored message, at least 1
 */
public record SendReceipt(String msgId, String sessionId, long ingressSeq) {
  public SendReceipt {
    Objects.requireNonNull(msgId, "msgId");
    Objects.requireNonNull(sessionId, "sessionId");
    if (ingressSeq < 1) {
      throw new IllegalArgumentException("ingressSeq must be >= 1 but was " + ingressSeq);
    }
  }
}
