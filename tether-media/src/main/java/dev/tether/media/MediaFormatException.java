package dev.tether.media;

import java.io.IOException;

/**
 * A registry file or attachment manifest that cannot be read: not JSON, too large, too deeply
 * nested, a duplicate field, a wrong type, or an entry that breaks a rule (an invalid id, a file
 * name that escapes its directory). The message names the file, the entry index when one entry
 * is at fault and the rule, without echoing the file's content beyond a short excerpt.
 *
 * <p>Loading that fails this way changes nothing in memory.
 */
public final class MediaFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public MediaFormatException(String message) {
    super(message);
  }

  public MediaFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
