package dev.tether.server;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The instance tokens of several servers that share one registry ({@link SharedRegistry#tokens}),
 * so a token minted on any of them opens its instance on all, outlives restarts, and a revocation
 * on any of them ends what it let in on all. Only the SHA-256 of a secret is given to it, never the
 * secret.
 *
 * <p>Implementations answer {@link #byHash}, {@link #get} and {@link #list} from memory (kept
 * current by the shared storage, within about a second of a change on another server), are
 * thread-safe and run no caller code except the {@link #onRemoved} listener. A call that cannot
 * reach the shared storage throws {@link dev.tether.store.StoreUnavailableException} (503).
 */
public interface SharedTokens {
  /**
   * One token as every server sees it.
   *
   * @param id what it is listed and revoked by
   * @param sha256 the hex SHA-256 of its secret
   * @param instance the instance it opens
   * @param generation the {@code createdAt} of that instance when the token was minted: a deleted
   *     and re-created id has another, and the token no longer opens it
   * @param createdAt when it was minted
   */
  record Token(String id, String sha256, String instance, Instant generation, Instant createdAt) {
    public Token {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(sha256, "sha256");
      Objects.requireNonNull(instance, "instance");
      Objects.requireNonNull(generation, "generation");
      Objects.requireNonNull(createdAt, "createdAt");
    }
  }

  /** Stores {@code token} for every server; this one finds it when this returns. */
  void put(Token token);

  /** Removes token {@code id} on every server; false when there was none. */
  boolean remove(String id);

  Optional<Token> get(String id);

  /** The token whose secret hashes to {@code sha256}. */
  Optional<Token> byHash(String sha256);

  List<Token> list();

  /**
   * Tells {@code listener} the id of each token removed from now on, by any server (this one
   * too), once per server; it must not block. Replaces an earlier listener.
   */
  void onRemoved(Consumer<String> listener);
}
