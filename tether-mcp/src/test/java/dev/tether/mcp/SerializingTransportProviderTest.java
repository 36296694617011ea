package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpServerTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

/**
 * Concurrent sends through {@link SerializingTransportProvider.SerializedTransport} onto a
 * transport that, like the SDK's stdio transport, fails when two threads emit at once.
 */
class SerializingTransportProviderTest {
  private static final Duration BOUND = Duration.ofSeconds(60);

  /**
   * Emits into a unicast sink with tryEmitNext, as the SDK's stdio transport does; records
   * failures and overlapping sends. With {@code async}, each send completes later on Reactor's
   * parallel scheduler, as the stdio transport's does when it waits for its outbound loop. Sends
   * whose message's params are listed in {@code failOn} fail without delivering.
   */
  static final class UnicastTransport implements McpServerTransport {
    final Sinks.Many<JSONRPCMessage> sink = Sinks.many().unicast().onBackpressureBuffer();
    final List<JSONRPCMessage> delivered = new CopyOnWriteArrayList<>();
    final AtomicInteger failures = new AtomicInteger();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger overlaps = new AtomicInteger();
    final AtomicBoolean closedGracefully = new AtomicBoolean();
    final boolean async;
    final Set<Object> failOn;

    UnicastTransport(boolean async, Set<Object> failOn) {
      this.async = async;
      this.failOn = failOn;
      sink.asFlux().subscribe(delivered::add);
    }

    UnicastTransport() {
      this(false, Set.of());
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      Mono<Void> emit = Mono.defer(() -> {
        if (inFlight.incrementAndGet() != 1) {
          overlaps.incrementAndGet();
        }
        try {
          if (failOn.contains(((JSONRPCNotification) message).params())) {
            return Mono.error(new RuntimeException("scripted failure"));
          }
          if (sink.tryEmitNext(message).isSuccess()) {
            return Mono.empty();
          }
          failures.incrementAndGet();
          return Mono.error(new RuntimeException("Failed to enqueue message"));
        } finally {
          inFlight.decrementAndGet();
        }
      });
      return async ? emit.subscribeOn(Schedulers.parallel()) : emit;
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.fromRunnable(() -> closedGracefully.set(true));
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void concurrentSends_allArriveOnce_inEachSendersOrder() throws Exception {
    UnicastTransport target = new UnicastTransport();
    sendConcurrently(new SerializingTransportProvider.SerializedTransport(target), 16, 1_000);
    assertAllDelivered(target, 16, 1_000);
  }

  @Test
  void concurrentSends_toTransportCompletingOnOtherThreads_neverOverlap_allArriveInOrder() throws Exception {
    UnicastTransport target = new UnicastTransport(true, Set.of());
    sendConcurrently(new SerializingTransportProvider.SerializedTransport(target), 16, 1_000);
    assertAllDelivered(target, 16, 1_000);
  }

  @Test
  void failedSend_doesNotWedgeLaterSends() throws Exception {
    // Messages 0, 1 and 500 of every sender fail at the transport; all others must still arrive.
    UnicastTransport target = new UnicastTransport(true, Set.of(0, 1, 500));
    sendConcurrently(new SerializingTransportProvider.SerializedTransport(target), 4, 1_000);
    waitFor(() -> target.delivered.size() == 4 * (1_000 - 3));
    assertEquals(0, target.failures.get());
    assertEquals(0, target.overlaps.get());
    Map<String, Integer> last = new HashMap<>();
    for (JSONRPCMessage message : target.delivered) {
      JSONRPCNotification n = (JSONRPCNotification) message;
      int value = (Integer) n.params();
      assertFalse(value == 0 || value == 1 || value == 500, "failed message not delivered");
      assertTrue(value > last.getOrDefault(n.method(), -1), "in each sender's order");
      last.put(n.method(), value);
    }
  }

  @Test
  void failedSend_thenOneMore_isDelivered() {
    UnicastTransport target = new UnicastTransport(false, Set.of(0));
    var serialized = new SerializingTransportProvider.SerializedTransport(target);
    serialized.sendMessage(new JSONRPCNotification("2.0", "t", 0)).block(BOUND);
    serialized.sendMessage(new JSONRPCNotification("2.0", "t", 1)).block(BOUND);
    assertEquals(List.of(1), target.delivered.stream().map(m -> ((JSONRPCNotification) m).params()).toList());
  }

  @Test
  void closeGracefully_closesDelegateAfterEveryQueuedMessage_thenRefusesSends() throws Exception {
    UnicastTransport target = new UnicastTransport(true, Set.of());
    var serialized = new SerializingTransportProvider.SerializedTransport(target);
    for (int i = 0; i < 200; i++) {
      serialized.sendMessage(new JSONRPCNotification("2.0", "t", i)).block(BOUND);
    }
    serialized.closeGracefully().block(BOUND);
    assertTrue(target.closedGracefully.get());
    assertAllDelivered(target, 1, 200, "t");
    var afterClose = serialized.sendMessage(new JSONRPCNotification("2.0", "t", 200));
    assertThrows(IllegalStateException.class, () -> afterClose.block(BOUND));
    assertEquals(200, target.delivered.size());
  }

  private static void sendConcurrently(McpServerTransport transport, int threads, int perThread) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> senders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int sender = t;
      Thread thread = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < perThread; i++) {
          transport.sendMessage(new JSONRPCNotification("2.0", "t" + sender, i)).block(BOUND);
        }
      });
      thread.start();
      senders.add(thread);
    }
    start.countDown();
    for (Thread thread : senders) {
      thread.join(BOUND.toMillis());
      assertFalse(thread.isAlive(), "sender stuck");
    }
  }

  private static void assertAllDelivered(UnicastTransport target, int threads, int perThread) throws Exception {
    waitFor(() -> target.delivered.size() >= threads * perThread);
    assertAllDelivered(target, threads, perThread, null);
  }

  private static void assertAllDelivered(UnicastTransport target, int threads, int perThread, String onlyMethod) {
    assertEquals(0, target.failures.get(), "no concurrent emission reached the transport");
    assertEquals(0, target.overlaps.get(), "no two sends overlapped");
    assertEquals(threads * perThread, target.delivered.size());
    Map<String, Integer> next = new HashMap<>();
    for (JSONRPCMessage message : target.delivered) {
      JSONRPCNotification n = (JSONRPCNotification) message;
      int expected = next.getOrDefault(n.method(), 0);
      assertEquals(expected, n.params(), "messages of " + n.method() + " in order, none lost or repeated");
      next.put(n.method(), expected + 1);
    }
    if (onlyMethod != null) {
      assertEquals(Map.of(onlyMethod, perThread), next);
    }
  }

  /** Waits (bounded) for asynchronous deliveries; the assertions that follow say what was missing. */
  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }
}
