package dev.tether.store.jetstream.internal;

import dev.tether.api.SessionKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * JetStream names for tether names: stream, subjects and Object Store bucket of an instance.
 *
 * <p>NATS stream names, bucket names and subject tokens allow only a safe subset of characters
 * (no {@code .}, {@code *}, {@code >}, whitespace or path separators). Letters, digits and
 * {@code -} pass through; every other byte of the UTF-8 form becomes {@code _} and two hex
 * digits. Since {@code _} itself is escaped, different names never share an encoding. A name
 * whose encoding would be longer than {@link #MAX_ENCODED} is replaced by {@code _h} and the
 * SHA-256 of its UTF-8 form ({@code _h} is no escape, so it cannot collide), so stream directories
 * stay within file-name limits. Thread-safe.
 */
public final class Names {
  static final int MAX_ENCODED = 96;
  /** Sessions go on {@code .s.}, frames without one on {@code .n}, transient deltas on {@code .d.<slot>}. */

  private final String prefix;

  /** @param prefix the first subject token and stream name prefix, e.g. {@code tether} */
  public Names(String prefix) {
    if (!prefix.matches("[A-Za-z0-9-]{1,32}")) {
      throw new IllegalArgumentException("prefix must be 1-32 letters, digits or '-' but was '" + prefix + "'");
    }
    this.prefix = prefix;
  }

  public String prefix() {
    return prefix;
  }

  /** The stream holding {@code instance}'s frames. */
  public String stream(String instance) {
    return prefix.toUpperCase(Locale.ROOT) + "_F_" + token(instance);
  }

  /** The Object Store bucket holding {@code instance}'s image bytes. */
  public String bucket(String instance) {
    return prefix.toUpperCase(Locale.ROOT) + "_I_" + token(instance);
  }

  /** Every subject of {@code instance}'s stream. */
  public String streamSubjects(String instance) {
    return prefix + ".f." + token(instance) + ".>";
  }

  /**
   * The subject a frame of {@code session} (null for none) is published on. Sessions are in the
   * subject, so a consumer can filter one session server-side.
   */
  public String subject(String instance, SessionKey session) {
    String base = prefix + ".f." + token(instance);
    return session == null ? base + ".n" : base + ".s." + token(session.channel()) + "." + token(session.id());
  }

  /**
   * The subject of a transient delta in slot {@code slot} of {@code instance}'s delta window. Deltas
   * are published with a subject rollup, so each slot holds only its newest delta (see
   * {@code StreamAdmin}); the frame's session is in its body, not in this subject.
   */
  public String deltaSubject(String instance, int slot) {
    if (slot < 0) {
      throw new IllegalArgumentException("slot must be >= 0 but was " + slot);
    }
    return prefix + ".f." + token(instance) + ".d." + slot;
  }

  /** The KV bucket of the shared instance registry and its watermarks. */
  public String registryBucket() {
    return prefix.toUpperCase(Locale.ROOT) + "_REGISTRY";
  }

  /** The registry key of an instance. */
  public String registryKey(String instance) {
    return "i." + token(instance);
  }

  /** The registry key of an instance's watermark on {@code channel}. */
  public String watermarkKey(String instance, String channel) {
    return "w." + token(instance) + "." + token(channel);
  }

  /** The KV filter matching every watermark key of an instance. */
  public String watermarkKeys(String instance) {
    return "w." + token(instance) + ".>";
  }

  /** The core NATS subject on which processes tell each other that an instance was removed. */
  public String removals() {
    return prefix + ".removed";
  }

  /** The encoding described above; never empty for a non-empty name. */
  static String token(String name) {
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    StringBuilder b = new StringBuilder(utf8.length + 8);
    if (utf8.length == 0) {
      return "_";
    }
    for (byte x : utf8) {
      int c = x & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-') {
        b.append((char) c);
      } else {
        b.append('_').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
      }
      if (b.length() > MAX_ENCODED) {
        return "_h" + sha256(utf8);
      }
    }
    return b.toString();
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
