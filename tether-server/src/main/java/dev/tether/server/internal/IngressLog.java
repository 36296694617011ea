package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.LogFields;
import java.lang.System.Logger.Level;

/**
 * The server's line per frame posted, at {@code DEBUG} (so a busy host logs nothing unless asked:
 * {@code --log-level debug}): each accepted frame with its instance, session, {@code msg_id}, type
 * and seq, and each refused one with its code and reason. The fields go as {@link LogFields}, so
 * {@code --log-format json} makes them fields and one ask can be followed by its {@code msg_id}
 * from the POST to the agent's {@code assistant.done}. Refusals are the client's fault and stay at
 * DEBUG, so a hostile client cannot flood the log. Logger {@code dev.tether.server.ingress}.
 * Stateless.
 */
final class IngressLog {
  private static final System.Logger LOG = System.getLogger("dev.tether.server.ingress");
  private static final int MAX_REASON = 200;

  private IngressLog() {}

  /** Whether lines are written (DEBUG is on for the logger), so a caller can skip building one. */
  static boolean enabled() {
    return LOG.isLoggable(Level.DEBUG);
  }

  static void accepted(String instance, Frame frame, long seq) {
    if (LOG.isLoggable(Level.DEBUG)) {
      LOG.log(Level.DEBUG, "accepted {0} seq {1} msg_id {2} on instance {3}",
          frame.type(), Long.toString(seq), frame.msgId().orElse(""), instance, LogFields.of(instance, frame.withSeq(seq)));
    }
  }

  static void refused(String instance, ErrorCode code, String why) {
    if (LOG.isLoggable(Level.DEBUG)) {
      String reason = why == null ? "" : why.length() <= MAX_REASON ? why : why.substring(0, MAX_REASON) + "...";
      LOG.log(Level.DEBUG, "refused a frame on instance {0}: {1} {2}", instance, code.name(), reason,
          LogFields.of("instance", instance, "code", code.name()));
    }
  }
}
