package dev.tether.coven;

import dev.tether.coven.internal.SshKeySigner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * How the agent proves who it is to a coven gateway: nothing, a bearer token
 * ({@code authorization: Bearer ...}), or an SSH key (the gateway's {@code x-ssh-pubkey},
 * {@code x-ssh-signature}, {@code x-ssh-timestamp} and {@code x-ssh-nonce} headers, a fresh
 * signature over {@code "timestamp|nonce"} for every stream, since the gateway refuses a nonce it
 * has seen).
 *
 * <p>Secrets come from files so that they never appear on a command line or in a process list.
 * Instances are immutable and thread-safe; {@link #toString()} never prints a secret.
 */
public final class CovenCredentials {
  private static final CovenCredentials NONE = new CovenCredentials("none", Map::of);

  private final String kind;
  private final Supplier<Map<String, String>> headers;

  private CovenCredentials(String kind, Supplier<Map<String, String>> headers) {
    this.kind = kind;
    this.headers = headers;
  }

  /** No credentials: for a gateway that runs without auth (development, tests). */
  public static CovenCredentials none() {
    return NONE;
  }

  /**
   * A bearer token, as the gateway's admin API issues it.
   *
   * @throws IllegalArgumentException when the token is blank or spans lines
   */
  public static CovenCredentials bearerToken(String token) {
    Objects.requireNonNull(token, "token");
    String t = token.strip();
    if (t.isEmpty() || t.indexOf('\n') >= 0 || t.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("the bearer token must be one non-empty line");
    }
    Map<String, String> h = Map.of("authorization", "Bearer " + t);
    return new CovenCredentials("bearer token", () -> h);
  }

  /**
   * The bearer token in {@code file} (surrounding whitespace and a final newline are ignored).
   *
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException when it holds no token or more than one line
   */
  public static CovenCredentials bearerTokenFile(Path file) throws IOException {
    String token = Files.readString(file, StandardCharsets.UTF_8);
    try {
      return bearerToken(token);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The OpenSSH private key in {@code privateKeyFile} ({@code -----BEGIN OPENSSH PRIVATE KEY-----},
   * as {@code ssh-keygen -t ed25519} writes it; unencrypted). Ed25519 and RSA keys are supported.
   *
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException when it is not an unencrypted OpenSSH Ed25519 or RSA key
   */
  public static CovenCredentials sshKey(Path privateKeyFile) throws IOException {
    SshKeySigner signer = SshKeySigner.load(privateKeyFile);
    return new CovenCredentials("ssh key " + signer.fingerprint(), signer::authHeaders);
  }

  /** The headers for one new stream; SSH credentials sign a fresh timestamp and nonce each call. */
  Map<String, String> headersForNewStream() {
    return headers.get();
  }

  /** Whether these credentials add any header. */
  boolean isNone() {
    return this == NONE;
  }

  @Override
  public String toString() {
    return "CovenCredentials[" + kind + "]";
  }
}
