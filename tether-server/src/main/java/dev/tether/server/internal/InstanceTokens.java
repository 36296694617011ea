package dev.tether.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.api.files.AtomicFiles;
import dev.tether.server.SharedTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Bearer tokens scoped to one instance: a VM's agent holds one and reaches only its own
 * instance's routes (send, poll, stream, blob, watermark), never another's or the registry.
 *
 * <p>Only the SHA-256 of a token is kept, in memory and (when the server has a data directory) in
 * a file written 0600 by temp file and rename; the token itself is shown once, when minted. A
 * presented token is hashed and looked up, so the time an answer takes tells nothing about how
 * close a guess was. Bounded: {@value #MAX_PER_INSTANCE} tokens per instance. Thread-safe (one lock;
 * minting and revoking are rare).
 *
 * <p>Shared ({@link #shared}): the hashes live in the {@link SharedTokens} of a registry several
 * servers share instead, each tied to the generation (creation time) of its instance, so a token
 * minted on any server opens its instance on all until it is revoked or the instance is deleted
 * (a re-created id has another generation: the old token opens nothing). Removals made by other
 * servers are told to {@link #onRemoved}, so this server ends what the token let in here too.
 */
final class InstanceTokens {
  static final int MAX_PER_INSTANCE = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** One token's grant: its id (to revoke it by), the instance it opens, when it was made. */
  record Grant(String id, String instance, Instant createdAt) {}

  /** A freshly minted token: the secret (shown once) and its grant. */
  record Minted(String token, Grant grant) {}

  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Grant> byHash = new LinkedHashMap<>();
  private final Path file; // null: in memory only
  private final SharedTokens shared; // null: this server's own
  private final Function<String, Optional<Instant>> generationOf; // instance -> its createdAt, when registered

  private InstanceTokens(Path file, SharedTokens shared, Function<String, Optional<Instant>> generationOf) {
    this.file = file;
    this.shared = shared;
    this.generationOf = generationOf;
  }

  private InstanceTokens(Path file) {
    this(file, null, null);
  }

  /**
   * Tokens kept in {@code shared}, valid while {@code generationOf} (the registry) answers the
   * generation they were minted under.
   */
  static InstanceTokens shared(SharedTokens shared, Function<String, Optional<Instant>> generationOf) {
    return new InstanceTokens(null, Objects.requireNonNull(shared, "shared"), Objects.requireNonNull(generationOf, "generationOf"));
  }

  /** Tells {@code revoked} the id of each token another server (or this one) removed from the shared tokens; no-op when not shared. */
  void onRemoved(Consumer<String> revoked) {
    if (shared != null) {
      shared.onRemoved(revoked);
    }
  }

  /** Tokens kept in memory only. */
  static InstanceTokens inMemory() {
    return new InstanceTokens(null);
  }

  /** Tokens kept in {@code file} (null: in memory only), loaded when it exists. */
  static InstanceTokens open(Path file) throws IOException {
    InstanceTokens t = new InstanceTokens(file);
    if (file != null && Files.exists(file)) {
      for (JsonNode n : Json.MAPPER.readTree(file.toFile()).path("tokens")) {
        t.byHash.put(n.path("sha256").asText(), new Grant(n.path("id").asText(), n.path("instance").asText(),
            Instant.parse(n.path("created_at").asText())));
      }
    }
    return t;
  }

  /** A new token for {@code instance}. */
  Minted mint(String instance) throws IOException {
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    String token = "tti_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    byte[] idBytes = new byte[6];
    RANDOM.nextBytes(idBytes);
    Grant grant = new Grant("tok-" + HexFormat.of().formatHex(idBytes), instance, Instant.now());
    if (shared != null) {
      Instant generation = generationOf.apply(instance).orElseThrow(() -> InstanceRegistry.notFound(instance));
      long mine = shared.list().stream().filter(t -> t.instance().equals(instance) && t.generation().equals(generation)).count();
      if (mine >= MAX_PER_INSTANCE) {
        throw tooMany(instance);
      }
      shared.put(new SharedTokens.Token(grant.id(), sha256(token), instance, generation, grant.createdAt()));
      return new Minted(token, grant);
    }
    lock.lock();
    try {
      long mine = byHash.values().stream().filter(g -> g.instance().equals(instance)).count();
      if (mine >= MAX_PER_INSTANCE) {
        throw tooMany(instance);
      }
      byHash.put(sha256(token), grant);
      save();
    } finally {
      lock.unlock();
    }
    return new Minted(token, grant);
  }

  /** The grant of {@code token}, when it is a live instance token. */
  Optional<Grant> find(String token) {
    String hash = sha256(token);
    if (shared != null) {
      return shared.byHash(hash).filter(this::current).map(InstanceTokens::grant);
    }
    lock.lock();
    try {
      return Optional.ofNullable(byHash.get(hash));
    } finally {
      lock.unlock();
    }
  }

  /** Whether the token with {@code id} is still valid (not revoked). */
  boolean live(String id) {
    if (shared != null) {
      return shared.get(id).filter(this::current).isPresent();
    }
    lock.lock();
    try {
      return byHash.values().stream().anyMatch(g -> g.id().equals(id));
    } finally {
      lock.unlock();
    }
  }

  /** Revokes the token with {@code id}; false when there is none. */
  boolean revoke(String id) throws IOException {
    if (shared != null) {
      return shared.remove(id);
    }
    lock.lock();
    try {
      boolean removed = byHash.values().removeIf(g -> g.id().equals(id));
      if (removed) {
        save();
      }
      return removed;
    } finally {
      lock.unlock();
    }
  }

  /** Revokes every token of {@code instance} (it was deleted). */
  void revokeAll(String instance) throws IOException {
    if (shared != null) {
      for (SharedTokens.Token t : shared.list()) {
        if (t.instance().equals(instance)) {
          shared.remove(t.id());
        }
      }
      return;
    }
    lock.lock();
    try {
      if (byHash.values().removeIf(g -> g.instance().equals(instance))) {
        save();
      }
    } finally {
      lock.unlock();
    }
  }

  List<Grant> list() {
    if (shared != null) {
      return shared.list().stream().filter(this::current).map(InstanceTokens::grant).toList();
    }
    lock.lock();
    try {
      return List.copyOf(new ArrayList<>(byHash.values()));
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@code t} was minted for the instance registered under its id now (not a deleted one of the same id). */
  private boolean current(SharedTokens.Token t) {
    return generationOf.apply(t.instance()).map(t.generation()::equals).orElse(false);
  }

  private static Grant grant(SharedTokens.Token t) {
    return new Grant(t.id(), t.instance(), t.createdAt());
  }

  private static TetherException tooMany(String instance) {
    return TetherException.of(ErrorCode.CONFLICT, "instance '" + instance + "' has " + MAX_PER_INSTANCE
        + " tokens, the limit; revoke one first (DELETE /v1/tokens/{id})");
  }

  private void save() throws IOException {
    if (file == null) {
      return;
    }
    ObjectNode root = Json.MAPPER.createObjectNode();
    ArrayNode list = root.putArray("tokens");
    byHash.forEach((hash, g) -> list.addObject().put("id", g.id()).put("instance", g.instance())
        .put("created_at", g.createdAt().toString()).put("sha256", hash));
    AtomicFiles.write(file, Json.MAPPER.writeValueAsBytes(root));
  }

  private static String sha256(String token) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
