package dev.tether.server.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * Checks {@code Authorization: Bearer <token>} headers against one secret token.
 *
 * <p>RFC 9110 section 11.1: the scheme is matched case-insensitively, the token compared in
 * constant time ({@link MessageDigest#isEqual}), so the time an answer takes tells nothing about
 * how much of a guess was right. Immutable and thread-safe; the token's bytes are copied.
 */
final class BearerAuth {
  /** Random bytes in a token made by {@link #newToken()}. */
  static final int TOKEN_BYTES = 32;

  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] token;

  /** @throws IllegalArgumentException when {@code token} is empty */
  BearerAuth(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isEmpty()) {
      throw new IllegalArgumentException("token must not be empty");
    }
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  /** A fresh token: {@value #TOKEN_BYTES} bytes from {@link SecureRandom}, URL-safe base64 without padding. */
  static String newToken() {
    byte[] random = new byte[TOKEN_BYTES];
    RANDOM.nextBytes(random);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }

  /** Whether {@code authorization} (the header's value, null when absent) carries this token. */
  boolean accepts(String authorization) {
    String presented = bearer(authorization);
    return presented != null && MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8));
  }

  /** The token of a {@code Bearer} header value, or null when it is absent or another scheme. */
  static String bearer(String authorization) {
    if (authorization == null) {
      return null;
    }
    String h = authorization.strip();
    int space = h.indexOf(' ');
    if (space < 0 || !"bearer".equalsIgnoreCase(h.substring(0, space))) {
      return null;
    }
    return h.substring(space + 1).strip();
  }
}
