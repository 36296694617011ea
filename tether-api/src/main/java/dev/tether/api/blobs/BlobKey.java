package dev.tether.api.blobs;

import dev.tether.api.MediaType;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * The name of a blob: the lower-case hex SHA-256 of its bytes and its media type, spelled
 * {@code {sha256-hex}.{ext}} with ext one of {@code png}, {@code jpg}, {@code gif}, {@code webp}.
 *
 * <p>The spelling is checked strictly before anything else is done with it: exactly 64 lower-case
 * hex digits, one dot, one of the four extensions, nothing else. So a key can never name a path
 * outside the blob directory ({@code ../}, absolute paths, {@code %2e%2e}, NUL, separators are
 * all rejected), and two spellings of one blob ({@code ABC...} and {@code abc...}, {@code .jpeg}
 * and {@code .jpg}) cannot exist. Immutable and thread-safe.
 *
 * @param sha256Hex 64 lower-case hex digits
 * @param mediaType the blob's type, which gives its extension
 */
public record BlobKey(String sha256Hex, MediaType mediaType) implements Comparable<BlobKey> {
  private static final int HEX_LENGTH = 64;
  private static final HexFormat HEX = HexFormat.of();

  public BlobKey {
    Objects.requireNonNull(sha256Hex, "sha256Hex");
    Objects.requireNonNull(mediaType, "mediaType");
    if (!isLowerHex(sha256Hex)) {
      throw new IllegalArgumentException("sha256Hex must be 64 lower-case hex digits but was '" + printable(sha256Hex) + "'");
    }
  }

  /** The key spelled {@code text}, or empty when it is not exactly {@code {64 lower hex}.{png|jpg|gif|webp}}. */
  public static Optional<BlobKey> parse(String text) {
    if (text == null || text.length() < HEX_LENGTH + 4 || text.length() > HEX_LENGTH + 5 || text.charAt(HEX_LENGTH) != '.') {
      return Optional.empty();
    }
    String hex = text.substring(0, HEX_LENGTH);
    if (!isLowerHex(hex)) {
      return Optional.empty();
    }
    return MediaType.forExtension(text.substring(HEX_LENGTH + 1)).map(type -> new BlobKey(hex, type));
  }

  /**
   * The key spelled {@code text}.
   *
   * @throws IllegalArgumentException when it is not a valid key
   */
  public static BlobKey of(String text) {
    Objects.requireNonNull(text, "text");
    return parse(text).orElseThrow(() -> new IllegalArgumentException(
        "not a blob key: '" + printable(text) + "'; expected {64 lower-case hex digits}.{png|jpg|gif|webp}"));
  }

  /** The key of {@code bytes} stored as {@code mediaType}; the bytes are hashed, not checked. */
  public static BlobKey forContent(byte[] bytes, MediaType mediaType) {
    return ofDigest(sha256().digest(bytes), mediaType);
  }

  /** The key for a 32-byte SHA-256 digest. */
  public static BlobKey ofDigest(byte[] sha256, MediaType mediaType) {
    if (sha256.length != 32) {
      throw new IllegalArgumentException("sha256 must be 32 bytes but was " + sha256.length);
    }
    return new BlobKey(HEX.formatHex(sha256), mediaType);
  }

  /** The file name, {@code {sha256-hex}.{ext}}. */
  public String fileName() {
    return sha256Hex + "." + mediaType.extension();
  }

  /** Whether {@code sha256} is this key's digest. */
  public boolean matches(byte[] sha256) {
    return MessageDigest.isEqual(HEX.parseHex(sha256Hex), sha256);
  }

  /** A fresh SHA-256 digest, the hash every key names. */
  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  @Override
  public int compareTo(BlobKey other) {
    int c = sha256Hex.compareTo(other.sha256Hex);
    return c != 0 ? c : mediaType.compareTo(other.mediaType);
  }

  @Override
  public String toString() {
    return fileName();
  }

  private static boolean isLowerHex(String s) {
    if (s.length() != HEX_LENGTH) {
      return false;
    }
    for (int i = 0; i < HEX_LENGTH; i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /** Caller-supplied text for an error message: bounded, control characters escaped. */
  private static String printable(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length() && i < 100; i++) {
      char c = s.charAt(i);
      sb.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return s.length() > 100 ? sb + "..." : sb.toString();
  }
}
