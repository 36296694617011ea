package dev.tether.client;

import java.util.Objects;

/**
 * The host's answer to a send: the frame's {@code msg_id}, its session id and the seq it was
 * stored at.
 */
public record SendReceipt(String msgId, String sessionId, long ingressSeq) {
  public SendReceipt {
    Objects.requireNonNull(msgId, "msgId");
    Objects.requireNonNull(sessionId, "sessionId");
  }
}
