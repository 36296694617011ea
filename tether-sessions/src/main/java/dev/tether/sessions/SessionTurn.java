package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import dev.tether.api.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One stored turn: who spoke, when, as which user, and its parts. Tool results are user turns,
 * as in the provider APIs. Immutable; the part list is copied.
 *
 * @param role who speaks
 * @param ts when the turn was recorded
 * @param user the display name of the person behind a user turn, when known
 * @param parts at least one part
 */
public record SessionTurn(Role role, Instant ts, Optional<String> user, List<SessionPart> parts) {
  public SessionTurn {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(ts, "ts");
    Objects.requireNonNull(user, "user");
    parts = List.copyOf(parts);
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("a turn needs at least one part");
    }
  }

  public static SessionTurn user(Instant ts, SessionPart... parts) {
    return new SessionTurn(Role.USER, ts, Optional.empty(), List.of(parts));
  }

  public static SessionTurn assistant(Instant ts, SessionPart... parts) {
    return new SessionTurn(Role.ASSISTANT, ts, Optional.empty(), List.of(parts));
  }

  /** Every blob this turn refers to, including those inside tool results. */
  public List<BlobKey> blobKeys() {
    List<BlobKey> keys = new ArrayList<>(2);
    for (SessionPart part : parts) {
      if (part instanceof SessionPart.ImageRef ref) {
        keys.add(ref.key());
      } else if (part instanceof SessionPart.ToolResult result) {
        for (SessionPart inner : result.content()) {
          if (inner instanceof SessionPart.ImageRef ref) {
            keys.add(ref.key());
          }
        }
      }
    }
    return keys;
  }
}
