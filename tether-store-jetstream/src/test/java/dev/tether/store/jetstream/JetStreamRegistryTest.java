package dev.tether.store.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The shared registry on a real nats-server: two hosts, each with its own connection. */
class JetStreamRegistryTest extends OneNatsServer {
  /** A host's registry on its own connection, under {@code prefix} (tests do not share registries). */
  JetStreamRegistry host(String prefix, int maxInstances, int maxChannels) throws Exception {
    Connection nc = Nats.connect(server.url());
    closeAfter.add(nc);
    JetStreamRegistry r = JetStreamRegistry.builder().connection(nc).subjectPrefix(prefix)
        .maxInstances(maxInstances).maxChannels(maxChannels).open();
    closeAfter.add(r);
    return r;
  }

  JetStreamRegistry host(String prefix) throws Exception {
    return host(prefix, 1000, 8);
  }

  static String prefix(String name) {
    return name + Long.toString(System.nanoTime(), 36);
  }

  /** Polls {@code check} for up to a second: what "visible on every host within a second" means. */
  static void withinASecond(String what, java.util.function.BooleanSupplier check) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
    while (!check.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + " not visible within a second");
      }
      Thread.sleep(10);
    }
  }

  @Test
  void createOnA_isFoundOnBAtOnce_andDeleteOnA_isGoneOnBWithinASecond() throws Exception {
    String p = prefix("prop");
    JetStreamRegistry a = host(p);
    JetStreamRegistry b = host(p);
    JetStreamRegistry.Created made = a.create("vm1", "/srv/ws/vm1", Map.of("owner", "alice"));
    assertTrue(made.created());
    RegisteredInstance onB = b.get("vm1").orElseThrow();
    assertEquals(made.instance(), onB);
    assertEquals("/srv/ws/vm1", onB.workspace());
    assertEquals(Map.of("owner", "alice"), onB.attributes());
    withinASecond("vm1 in B's list", () -> b.list().stream().anyMatch(i -> i.id().equals("vm1")));

    assertTrue(a.delete("vm1"));
    withinASecond("the delete on B", () -> b.get("vm1").isEmpty());
    assertTrue(b.list().isEmpty());
    assertFalse(b.delete("vm1"), "already gone");
  }

  @Test
  void sameIdCreatedConcurrentlyOnTwoHosts_endsInOneInstance() throws Exception {
    String p = prefix("race");
    JetStreamRegistry a = host(p);
    JetStreamRegistry b = host(p);
    for (int i = 0; i < 20; i++) {
      String id = "vm-" + i;
      CyclicBarrier start = new CyclicBarrier(2);
      CompletableFuture<JetStreamRegistry.Created> onA = CompletableFuture.supplyAsync(() -> race(start, a, id, "/a"));
      CompletableFuture<JetStreamRegistry.Created> onB = CompletableFuture.supplyAsync(() -> race(start, b, id, "/b"));
      JetStreamRegistry.Created ra = onA.get(30, TimeUnit.SECONDS);
      JetStreamRegistry.Created rb = onB.get(30, TimeUnit.SECONDS);
      assertTrue(ra.created() ^ rb.created(), id + ": exactly one host created it");
      assertEquals(ra.instance(), rb.instance(), id + ": both hosts answer the same instance");
    }
    withinASecond("20 instances on both", () -> a.size() == 20 && b.size() == 20);
  }

  private static JetStreamRegistry.Created race(CyclicBarrier start, JetStreamRegistry r, String id, String ws) {
    try {
      start.await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return r.create(id, ws, Map.of());
  }

  @Test
  void watermarks_areSharedAndGoWithTheirInstance() throws Exception {
    String p = prefix("wm");
    JetStreamRegistry a = host(p);
    JetStreamRegistry b = host(p);
    assertEquals(ErrorCode.INSTANCE_NOT_FOUND, assertThrows(TetherException.class, () -> a.setWatermark("vm", "host", 3)).code());
    a.create("vm", null, Map.of());
    assertEquals(0, b.watermark("vm", "telegram"));
    a.setWatermark("vm", "telegram", 42);
    a.setWatermark("vm", "a.b c/é", 7); // any channel name
    assertEquals(42, b.watermark("vm", "telegram"), "a gateway moved to host B resumes where it was");
    assertEquals(Map.of("telegram", 42L, "a.b c/é", 7L), b.watermarks("vm"));
    b.setWatermark("vm", "telegram", 40); // a client may move its cursor back
    assertEquals(40, a.watermark("vm", "telegram"));

    assertTrue(b.delete("vm"));
    a.create("vm", null, Map.of());
    assertEquals(0, a.watermark("vm", "telegram"), "a new instance of the same id starts from 0");
    assertEquals(Map.of(), a.watermarks("vm"));
  }

  /**
   * A host that still remembers an instance another host just deleted creates it anew: the
   * bucket decides a create, not the host's memory (the watch may bring the delete a moment later,
   * and then the instance would be gone on the host that answered "it exists").
   */
  @Test
  void createRightAfterAnotherHostDeleted_createsAnew_evenBeforeTheWatchSaysSo() throws Exception {
    String p = prefix("recreate");
    JetStreamRegistry a = host(p);
    JetStreamRegistry b = host(p);
    for (int i = 0; i < 20; i++) {
      String id = "vm-" + i;
      assertTrue(a.create(id, null, Map.of()).created());
      assertTrue(b.get(id).isPresent());
      assertTrue(b.delete(id));
      JetStreamRegistry.Created again = a.create(id, null, Map.of());
      assertTrue(again.created(), "round " + i + ": deleted on B, so A creates it anew");
      a.setWatermark(id, "gw", 5);
      assertEquals(5, b.watermark(id, "gw"), "round " + i + ": the new instance is registered on both");
    }
  }

  @Test
  void bounds_instancesAndChannelsPerInstance() throws Exception {
    String p = prefix("bounds");
    JetStreamRegistry r = host(p, 3, 2);
    for (int i = 0; i < 3; i++) {
      r.create("vm" + i, null, Map.of());
    }
    assertEquals(ErrorCode.TOO_MANY_INSTANCES, assertThrows(TetherException.class, () -> r.create("vm3", null, Map.of())).code());
    assertFalse(r.create("vm0", null, Map.of()).created(), "an existing id is still answered when full");
    r.setWatermark("vm0", "c1", 1);
    r.setWatermark("vm0", "c2", 1);
    r.setWatermark("vm0", "c2", 2); // an existing channel is not a new one
    assertEquals(ErrorCode.INVALID_ARGUMENT, assertThrows(TetherException.class, () -> r.setWatermark("vm0", "c3", 1)).code());
    assertTrue(r.delete("vm2"));
    assertTrue(r.create("vm3", null, Map.of()).created());
    assertEquals(ErrorCode.INVALID_ARGUMENT, assertThrows(TetherException.class,
        () -> r.create("big", null, Map.of("x", "y".repeat(20_000)))).code());
  }

  @Test
  void aHostStartedLater_loadsEveryInstance() throws Exception {
    String p = prefix("load");
    JetStreamRegistry a = host(p);
    for (int i = 0; i < 50; i++) {
      a.create("vm" + i, null, Map.of("i", Integer.toString(i)));
    }
    a.delete("vm7");
    JetStreamRegistry late = host(p);
    assertEquals(49, late.size(), "loaded at open, deletes included");
    assertEquals(a.list(), late.list());
  }
}
