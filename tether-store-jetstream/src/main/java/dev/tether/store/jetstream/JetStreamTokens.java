package dev.tether.store.jetstream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.store.jetstream.internal.FormingCluster;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamOptions;
import io.nats.client.KeyValue;
import io.nats.client.KeyValueOptions;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.KeyValueWatcher;
import io.nats.client.api.StorageType;
import io.nats.client.impl.NatsKeyValueWatchSubscription;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The instance tokens shared by every host on the same NATS servers (and subject prefix): one
 * JetStream KV bucket ({@code <PREFIX>_TOKENS}, history 1, file storage, the store's replicas),
 * key = token id, value = {@code {sha256, instance, generation, created_at}}. Only the SHA-256 of
 * a token's secret is stored, never the secret.
 *
 * <p>Each host watches the bucket and keeps every token in memory (by id and by hash), so a look-up
 * costs no request; a put or delete on any host reaches the others through the watch, within
 * milliseconds when the servers are reachable. A removal (revoke, or an instance deleted) is told
 * to the {@linkplain #onRemoved listener} on every host, so each ends what the token let in.
 *
 * <p>Thread-safe. Calls that need JetStream throw {@link StoreUnavailableException} when it does not answer.
 */
public final class JetStreamTokens implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(JetStreamTokens.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

  /**
   * One token as every host sees it.
   *
   * @param id the token's id (what it is revoked by)
   * @param sha256 the hex SHA-256 of the secret
   * @param instance the instance it opens
   * @param generation the {@code createdAt} of the instance it was minted for: a re-created id has another
   * @param createdAt when it was minted
   */
  public record Token(String id, String sha256, String instance, Instant generation, Instant createdAt) {
    public Token {
      if (!ID.matcher(Objects.requireNonNull(id, "id")).matches()) {
        throw new IllegalArgumentException("a token id is 1 to 64 letters, digits, '-' or '_'");
      }
      if (!SHA256.matcher(Objects.requireNonNull(sha256, "sha256")).matches()) {
        throw new IllegalArgumentException("sha256 must be 64 lower-case hex digits");
      }
      Objects.requireNonNull(instance, "instance");
      Objects.requireNonNull(generation, "generation");
      Objects.requireNonNull(createdAt, "createdAt");
    }
  }

  private final KeyValue kv;
  private final ConcurrentHashMap<String, Token> byId = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Token> byHash = new ConcurrentHashMap<>();
  private final NatsKeyValueWatchSubscription watch;
  private volatile Consumer<String> onRemoved = id -> {};

  private JetStreamTokens(KeyValue kv, Duration loadTimeout) throws IOException {
    this.kv = kv;
    CountDownLatch loaded = new CountDownLatch(1);
    try {
      this.watch = kv.watchAll(new KeyValueWatcher() {
        @Override
        public void watch(KeyValueEntry e) {
          apply(e);
        }

        @Override
        public void endOfData() {
          loaded.countDown();
        }
      });
      if (!loaded.await(loadTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.log(System.Logger.Level.WARNING, "the token bucket did not load within {0}; starting with what it has", loadTimeout);
      }
    } catch (JetStreamApiException e) {
      throw new IOException("cannot watch the token bucket: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while loading the tokens");
    }
  }

  /**
   * Opens (creating when absent) the token bucket of {@code store}'s connection, prefix and
   * replicas, and loads its tokens.
   *
   * @throws IOException when JetStream cannot be reached or the bucket cannot be made
   */
  public static JetStreamTokens open(JetStreamTetherStore store) throws IOException {
    Connection nc = store.connection();
    String bucket = store.subjectPrefix().toUpperCase(Locale.ROOT).replace('.', '_') + "_TOKENS";
    Duration requestTimeout = Duration.ofSeconds(5);
    KeyValueOptions options = KeyValueOptions.builder()
        .jetStreamOptions(JetStreamOptions.builder().requestTimeout(requestTimeout).build()).build();
    try {
      FormingCluster.retry("opening the token bucket " + bucket, Duration.ofSeconds(30), () -> {
        try {
          return nc.keyValueManagement(options).create(KeyValueConfiguration.builder(bucket)
              .description("tether instance tokens (SHA-256 only)").maxHistoryPerKey(1).storageType(StorageType.File)
              .replicas(store.replicas()).maxValueSize(4096).build());
        } catch (JetStreamApiException e) {
          if (e.getApiErrorCode() != 10058) { // exists with another configuration: use it
            throw e;
          }
          return null;
        }
      });
      return new JetStreamTokens(nc.keyValue(bucket, options), requestTimeout.multipliedBy(10));
    } catch (JetStreamApiException e) {
      throw new IOException("cannot open the token bucket " + bucket + ": " + e.getMessage(), e);
    }
  }

  /** Tells {@code listener} the id of every token removed from now on, by any host (this one too); it must not block. */
  public void onRemoved(Consumer<String> listener) {
    this.onRemoved = Objects.requireNonNull(listener, "listener");
  }

  /** Stores {@code token} for every host; this host knows it when this returns. */
  public void put(Token token) {
    ObjectNode v = JSON.createObjectNode();
    v.put("sha256", token.sha256()).put("instance", token.instance()).put("generation", token.generation().toString())
        .put("created_at", token.createdAt().toString());
    try {
      kv.put(token.id(), JSON.writeValueAsBytes(v));
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("store a token", e);
    }
    remember(token);
  }

  /**
   * Removes the token {@code id} on every host; false when there is none (a token another host
   * minted a moment ago, not yet seen through the watch, is looked up in the bucket).
   */
  public boolean remove(String id) {
    if (!ID.matcher(id).matches()) {
      return false;
    }
    try {
      if (!byId.containsKey(id)) {
        KeyValueEntry e = kv.get(id);
        if (e == null || e.getOperation() != KeyValueOperation.PUT) {
          return false;
        }
      }
      kv.purge(id);
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("revoke a token", e);
    }
    forget(id);
    return true;
  }

  public Optional<Token> get(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The token whose secret hashes to {@code sha256}, from memory. */
  public Optional<Token> byHash(String sha256) {
    return Optional.ofNullable(byHash.get(sha256));
  }

  public List<Token> list() {
    return List.copyOf(byId.values());
  }

  private void apply(KeyValueEntry e) {
    if (e == null) {
      return;
    }
    if (e.getOperation() != KeyValueOperation.PUT) {
      forget(e.getKey());
      return;
    }
    try {
      JsonNode n = JSON.readTree(e.getValue());
      remember(new Token(e.getKey(), n.path("sha256").asText(), n.path("instance").asText(),
          Instant.parse(n.path("generation").asText()), Instant.parse(n.path("created_at").asText())));
    } catch (IOException | RuntimeException ex) {
      LOG.log(System.Logger.Level.WARNING, "token key {0} holds no token; ignored", e.getKey());
    }
  }

  private void remember(Token t) {
    byId.put(t.id(), t);
    byHash.put(t.sha256(), t);
  }

  private void forget(String id) {
    Token gone = byId.remove(id);
    if (gone != null) {
      byHash.remove(gone.sha256(), gone);
      onRemoved.accept(id);
    }
  }

  private static StoreUnavailableException unavailable(String what, Throwable cause) {
    return new StoreUnavailableException("the instance tokens on NATS JetStream could not " + what
        + " (servers unreachable, or the bucket has no leader); retry later. Cause: " + cause, cause);
  }

  /** Stops watching. The connection stays open (it is the caller's). Idempotent. */
  @Override
  public void close() {
    try {
      watch.unsubscribe();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "closing the token watch: {0}", e.getMessage());
    }
  }
}
