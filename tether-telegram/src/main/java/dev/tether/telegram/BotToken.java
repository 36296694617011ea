package dev.tether.telegram;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A bot's secret token from BotFather ({@code 123456:ABC-DEF...}).
 *
 * <p>The Bot API puts the token in every URL ({@code /bot<token>/getUpdates}), so every message
 * the bridge builds from a URL, a response or an exception goes through {@link #redact(String)}.
 * {@link #toString()} never shows the token. Immutable and thread-safe.
 */
public final class BotToken {
  /** What the token looks like: a numeric bot id, a colon and a secret of URL-safe characters. */
  private static final Pattern SHAPE = Pattern.compile("[0-9]{1,20}:[A-Za-z0-9_-]{10,200}");
  private static final Set<PosixFilePermission> GROUP_OR_OTHER = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private final String value;

  private BotToken(String value) {
    this.value = value;
  }

  /**
   * A token from its text.
   *
   * @throws IllegalArgumentException when it does not look like a BotFather token (the message
   *     does not contain the text)
   */
  public static BotToken of(String token) {
    Objects.requireNonNull(token, "token");
    if (!SHAPE.matcher(token).matches()) {
      throw new IllegalArgumentException("the bot token does not look like BotFather's <digits>:<secret>");
    }
    return new BotToken(token);
  }

  /**
   * Reads the token from {@code file} (surrounding whitespace ignored). On file systems with POSIX
   * permissions the file must not be readable or writable by group or others (mode 0600 or
   * stricter), like an SSH key.
   *
   * @throws IOException when the file cannot be read or is open to others; the message names the
   *     file and the fix, never the token
   */
  public static BotToken fromFile(Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.stream().anyMatch(GROUP_OR_OTHER::contains)) {
        throw new IOException("the token file " + file + " is readable by others; run: chmod 600 " + file);
      }
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: nothing to check.
    }
    String text = Files.readString(file, StandardCharsets.UTF_8).strip();
    try {
      return of(text);
    } catch (IllegalArgumentException e) {
      throw new IOException("the token file " + file + " does not hold a BotFather token (<digits>:<secret>)");
    }
  }

  /** The token itself, for building Bot API URLs only. */
  public String value() {
    return value;
  }

  /** {@code text} with every occurrence of the token replaced by {@code <token>}; null stays null. */
  public String redact(String text) {
    return text == null ? null : text.replace(value, "<token>");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BotToken t && t.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  /** The bot id (the part before the colon, which is public) and a mask. */
  @Override
  public String toString() {
    return "BotToken[" + value.substring(0, value.indexOf(':')) + ":***]";
  }
}
