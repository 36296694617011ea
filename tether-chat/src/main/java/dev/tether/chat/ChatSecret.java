package dev.tether.chat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One secret of a chat bridge (a bot token, an app secret, a signing secret), read from a file that
 * only its owner can read, the way an SSH key is: never from argv, never in a log line
 * ({@link #redact}), never in {@link #toString()}. Immutable and thread-safe.
 */
public final class ChatSecret {
  private static final Set<PosixFilePermission> GROUP_OR_OTHER = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
  /** Longest secret file read; the platforms' secrets are far shorter. */
  private static final long MAX_BYTES = 4096;

  private final String name;
  private final String value;

  private ChatSecret(String name, String value) {
    this.name = name;
    this.value = value;
  }

  /**
   * A secret from its text (tests and embedders).
   *
   * @param name what it is, for messages ({@code Slack bot token})
   * @throws IllegalArgumentException when it is blank, shorter than 8 characters or holds whitespace
   */
  public static ChatSecret of(String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    if (value.length() < 8 || value.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("the " + name + " must be at least 8 characters without spaces");
    }
    return new ChatSecret(name, value);
  }

  /**
   * Reads a secret from {@code file} (surrounding whitespace ignored). On file systems with POSIX
   * permissions the file must not be open to group or others (mode 0600 or stricter).
   *
   * @throws IOException when the file cannot be read, is open to others or holds no usable
   *     secret; the message names the file and the fix, never the secret
   */
  public static ChatSecret fromFile(String name, Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.stream().anyMatch(GROUP_OR_OTHER::contains)) {
        throw new IOException("the " + name + " file " + file + " is readable by others; run: chmod 600 " + file);
      }
    } catch (UnsupportedOperationException e) {
      // no POSIX permissions on this file system
    }
    if (!Files.isRegularFile(file) || Files.size(file) > MAX_BYTES) {
      throw new IOException("the " + name + " file " + file + " must be a regular file of at most " + MAX_BYTES + " bytes");
    }
    String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).strip();
    try {
      return of(name, text);
    } catch (IllegalArgumentException e) {
      throw new IOException("the " + name + " file " + file + " holds no usable secret: " + e.getMessage());
    }
  }

  /** The secret itself, for the one request header or signature that needs it. */
  public String reveal() {
    return value;
  }

  /** {@code text} with every occurrence of the secret replaced by {@code <name redacted>}. */
  public String redact(String text) {
    return text == null ? null : text.replace(value, "<" + name + " redacted>");
  }

  @Override
  public String toString() {
    return "ChatSecret[" + name + ", redacted]";
  }
}
