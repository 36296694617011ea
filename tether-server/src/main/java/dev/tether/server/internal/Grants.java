package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The grants in use: every long-poll and stream in progress, filed under the instance it reads and
 * (when an instance token let it in) that token's id, each with a hook that ends it. Revoking a
 * token ({@link #revoked}) or deleting an instance ({@link #deleted}) fires the hooks of everything
 * filed under it, so what the grant let in ends at once instead of running on until its wait or
 * stream would have ended by itself.
 *
 * <p>What "end" means is the holder's: a poll answers its request 401 (revoked) or 404 (deleted),
 * a stream writes its last chunk. A hook runs at most once, on the thread that revokes or deletes
 * (or registers, see below); it must only set state and cancel a future, never block or write.
 *
 * <p>Concurrency: no lock and no polling. A holder is <em>published</em> first (added to the sets
 * of its token and instance, {@link ConcurrentHashMap} compute on the key) and <em>then checks</em>
 * that its token and instance are still live; a revocation first makes the grant dead (the token
 * store or registry removes it, under their own lock) and <em>then takes</em> the set (remove on
 * the key). Either the revocation's take happens after the publish, and sees the holder, or the
 * holder's check happens after the grant died, and ends itself: a holder that registers while its
 * token is being revoked is never left running (a lost wake-up would need both the check before
 * the death and the take before the publish, which the two orders exclude). A holder published
 * after the take lands in a fresh set that nobody revokes again, but its own check ends it and
 * {@link #release} empties that set. Sets are removed when they empty, so the maps hold only what
 * is in progress. Thread-safe.
 */
final class Grants {

  /** One wait or stream in progress under a grant; {@link #end} runs its hook once. */
  static final class Hold {
    private final String tokenId; // null: the host token, the Unix socket or the console
    private final String instance;
    private final Consumer<TetherException> hook;
    private final AtomicBoolean ended = new AtomicBoolean();

    private Hold(String tokenId, String instance, Consumer<TetherException> hook) {
      this.tokenId = tokenId;
      this.instance = instance;
      this.hook = hook;
    }

    /** Runs the hook with {@code why}, the first time only. */
    void end(TetherException why) {
      if (ended.compareAndSet(false, true)) {
        hook.accept(why);
      }
    }

    boolean ended() {
      return ended.get();
    }
  }

  private final ConcurrentHashMap<String, Set<Hold>> byToken = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Set<Hold>> byInstance = new ConcurrentHashMap<>();
  private final Predicate<String> tokenLive;
  private final Predicate<String> instanceLive;

  /**
   * @param tokenLive whether the instance token with this id is still valid
   * @param instanceLive whether the instance with this id is still registered
   */
  Grants(Predicate<String> tokenLive, Predicate<String> instanceLive) {
    this.tokenLive = Objects.requireNonNull(tokenLive, "tokenLive");
    this.instanceLive = Objects.requireNonNull(instanceLive, "instanceLive");
  }

  /**
   * Files a wait or stream on {@code instance} that token {@code tokenId} (null: no instance
   * token) let in. When the token or instance is already gone, {@code hook} runs before this
   * returns. The caller gives the hold back with {@link #release} when it ends by itself.
   */
  Hold hold(String tokenId, String instance, Consumer<TetherException> hook) {
    Hold h = new Hold(tokenId, Objects.requireNonNull(instance, "instance"), Objects.requireNonNull(hook, "hook"));
    add(byInstance, instance, h);
    if (tokenId != null) {
      add(byToken, tokenId, h);
    }
    // Published: now check, so that a revocation racing this registration cannot be missed.
    if (tokenId != null && !tokenLive.test(tokenId)) {
      release(h);
      h.end(revokedError());
    } else if (!instanceLive.test(instance)) {
      release(h);
      h.end(deletedError(instance));
    }
    return h;
  }

  /** Forgets {@code hold} (its wait or stream ended); idempotent, null is ignored. */
  void release(Hold hold) {
    if (hold == null) {
      return;
    }
    remove(byInstance, hold.instance, hold);
    if (hold.tokenId != null) {
      remove(byToken, hold.tokenId, hold);
    }
  }

  /**
   * Ends everything token {@code tokenId} let in; call after the token store has dropped it.
   *
   * @return how many waits and streams were ended
   */
  int revoked(String tokenId) {
    Set<Hold> holds = byToken.remove(tokenId);
    if (holds == null) {
      return 0;
    }
    TetherException why = revokedError();
    for (Hold h : holds) {
      remove(byInstance, h.instance, h);
      h.end(why);
    }
    return holds.size();
  }

  /**
   * Ends every wait and stream on {@code instance}; call after the registry has dropped it.
   *
   * @return how many waits and streams were ended
   */
  int deleted(String instance) {
    Set<Hold> holds = byInstance.remove(instance);
    if (holds == null) {
      return 0;
    }
    TetherException why = deletedError(instance);
    for (Hold h : holds) {
      if (h.tokenId != null) {
        remove(byToken, h.tokenId, h);
      }
      h.end(why);
    }
    return holds.size();
  }

  /** Waits and streams filed now, for tests. */
  int size() {
    return byInstance.values().stream().mapToInt(Set::size).sum();
  }

  private static void add(ConcurrentHashMap<String, Set<Hold>> map, String key, Hold h) {
    map.compute(key, (k, set) -> {
      Set<Hold> s = set == null ? ConcurrentHashMap.newKeySet() : set;
      s.add(h);
      return s;
    });
  }

  private static void remove(ConcurrentHashMap<String, Set<Hold>> map, String key, Hold h) {
    map.computeIfPresent(key, (k, set) -> {
      set.remove(h);
      return set.isEmpty() ? null : set;
    });
  }

  static TetherException revokedError() {
    return TetherException.of(ErrorCode.UNAUTHORIZED, "the token this request was made with has been revoked");
  }

  static TetherException deletedError(String instance) {
    return TetherException.of(ErrorCode.INSTANCE_NOT_FOUND, "instance '" + instance + "' was deleted while this request waited");
  }
}
