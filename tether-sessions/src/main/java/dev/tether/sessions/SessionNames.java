package dev.tether.sessions;

import dev.tether.api.SessionKey;
import java.util.Objects;

/**
 * The file-system name of a session, for anything kept per session beside its log (a session's
 * attachment directory, say): the session log's file name without {@code .jsonl}, so it has the
 * same guarantees (see {@link SessionFileNames}): no two sessions share one, also on
 * case-insensitive file systems; only {@code a-z 0-9 _ - ~ %} occur; at most 200 characters.
 * Stateless and thread-safe.
 */
public final class SessionNames {
  private SessionNames() {}

  /** The name of {@code session}, such as {@code host~default} or {@code telegram~%2D100123}. */
  public static String of(SessionKey session) {
    Objects.requireNonNull(session, "session");
    String file = SessionFileNames.fileName(session);
    return file.substring(0, file.length() - SessionFileNames.SUFFIX.length());
  }
}
