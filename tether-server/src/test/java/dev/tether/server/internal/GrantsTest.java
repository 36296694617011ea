package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link Grants}: revocation and deletion end what they let in, also when they race a registration. */
class GrantsTest {
  private final Set<String> liveTokens = ConcurrentHashMap.newKeySet();
  private final Set<String> liveInstances = ConcurrentHashMap.newKeySet();
  private final Grants grants = new Grants(liveTokens::contains, liveInstances::contains);

  /** Records what ended it, and how often its hook ran. */
  private static final class RecordingHook implements java.util.function.Consumer<TetherException> {
    final AtomicReference<TetherException> why = new AtomicReference<>();
    final AtomicInteger runs = new AtomicInteger();

    @Override
    public void accept(TetherException e) {
      why.set(e);
      runs.incrementAndGet();
    }
  }

  @Test
  void revoked_endsOnlyThatTokensHolds_with401() {
    liveTokens.addAll(List.of("t1", "t2"));
    liveInstances.add("vm1");
    RecordingHook a = new RecordingHook();
    RecordingHook b = new RecordingHook();
    RecordingHook host = new RecordingHook();
    grants.hold("t1", "vm1", a);
    grants.hold("t2", "vm1", b);
    grants.hold(null, "vm1", host);

    liveTokens.remove("t1");
    assertEquals(1, grants.revoked("t1"));
    assertEquals(ErrorCode.UNAUTHORIZED, a.why.get().code());
    assertNull(b.why.get());
    assertNull(host.why.get());
    assertEquals(2, grants.size());
  }

  @Test
  void deleted_endsEveryHoldOnTheInstance_with404_andForgetsThem() {
    liveTokens.add("t1");
    liveInstances.addAll(List.of("vm1", "vm2"));
    RecordingHook token = new RecordingHook();
    RecordingHook host = new RecordingHook();
    RecordingHook other = new RecordingHook();
    grants.hold("t1", "vm1", token);
    grants.hold(null, "vm1", host);
    grants.hold(null, "vm2", other);

    liveInstances.remove("vm1");
    assertEquals(2, grants.deleted("vm1"));
    assertEquals(ErrorCode.INSTANCE_NOT_FOUND, token.why.get().code());
    assertEquals(ErrorCode.INSTANCE_NOT_FOUND, host.why.get().code());
    assertNull(other.why.get());
    assertEquals(0, grants.revoked("t1"), "the token's holds were forgotten with the instance's");
    assertEquals(1, grants.size());
  }

  @Test
  void holdAfterRevocation_endsAtOnce_andIsNotKept() {
    liveInstances.add("vm1");
    RecordingHook hook = new RecordingHook();
    Grants.Hold h = grants.hold("gone", "vm1", hook);
    assertTrue(h.ended());
    assertEquals(ErrorCode.UNAUTHORIZED, hook.why.get().code());
    assertEquals(0, grants.size());
  }

  @Test
  void released_isNotEnded_andTheHookRunsOnceAtMost() {
    liveTokens.add("t1");
    liveInstances.add("vm1");
    RecordingHook hook = new RecordingHook();
    Grants.Hold h = grants.hold("t1", "vm1", hook);
    grants.release(h);
    grants.release(h);
    assertEquals(0, grants.size());
    liveTokens.remove("t1");
    assertEquals(0, grants.revoked("t1"));
    assertFalse(h.ended());
    h.end(Grants.revokedError());
    h.end(Grants.revokedError());
    assertEquals(1, hook.runs.get());
  }

  /**
   * Revocation racing registration, 5,000 times on two threads released together: the hold is
   * ended every time (no lost wake-up), its hook ran exactly once, and nothing stays filed.
   */
  @Test
  void revokeRacingRegistration_neverLeavesALiveHold() throws Exception {
    liveInstances.add("vm1");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      CyclicBarrier start = new CyclicBarrier(2);
      List<String> lost = new ArrayList<>();
      for (int i = 0; i < 5_000; i++) {
        String token = "t" + i;
        liveTokens.add(token);
        RecordingHook hook = new RecordingHook();
        Future<Grants.Hold> register = pool.submit(() -> {
          start.await(10, TimeUnit.SECONDS);
          return grants.hold(token, "vm1", hook);
        });
        Future<?> revoke = pool.submit(() -> {
          start.await(10, TimeUnit.SECONDS);
          liveTokens.remove(token); // as InstanceTokens.revoke, then TokenRoutes.revoke
          grants.revoked(token);
          return null;
        });
        Grants.Hold h = register.get(10, TimeUnit.SECONDS);
        revoke.get(10, TimeUnit.SECONDS);
        if (!h.ended() || hook.runs.get() != 1) {
          lost.add(token + " ended=" + h.ended() + " runs=" + hook.runs.get());
        }
        grants.release(h); // what the request does once it is answered
      }
      assertEquals(List.of(), lost);
      assertEquals(0, grants.size());
    } finally {
      pool.shutdownNow();
    }
  }

  /** The same race for an instance's deletion. */
  @Test
  void deleteRacingRegistration_neverLeavesALiveHold() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      CyclicBarrier start = new CyclicBarrier(2);
      int lost = 0;
      for (int i = 0; i < 5_000; i++) {
        String instance = "vm" + i;
        liveInstances.add(instance);
        RecordingHook hook = new RecordingHook();
        Future<Grants.Hold> register = pool.submit(() -> {
          start.await(10, TimeUnit.SECONDS);
          return grants.hold(null, instance, hook);
        });
        Future<?> delete = pool.submit(() -> {
          start.await(10, TimeUnit.SECONDS);
          liveInstances.remove(instance);
          grants.deleted(instance);
          return null;
        });
        Grants.Hold h = register.get(10, TimeUnit.SECONDS);
        delete.get(10, TimeUnit.SECONDS);
        if (!h.ended() || hook.runs.get() != 1) {
          lost++;
        }
        grants.release(h);
      }
      assertEquals(0, lost);
      assertEquals(0, grants.size());
    } finally {
      pool.shutdownNow();
    }
  }
}
