package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpServerTransport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Concurrent sends through {@link SerializingTransportProvider.SerializedTransport} onto a
 * transport that, like the SDK's stdio transport, fails when two threads emit at once.
 */
class SerializingTransportProviderTest {

  /** Emits into a unicast sink with tryEmitNext, as the SDK's stdio transport does; records failures. */
  static final class UnicastTransport implements McpServerTransport {
    final Sinks.Many<JSONRPCMessage> sink = Sinks.many().unicast().onBackpressureBuffer();
    final List<JSONRPCMessage> delivered = new CopyOnWriteArrayList<>();
    final AtomicInteger failures = new AtomicInteger();

    UnicastTransport() {
      sink.asFlux().subscribe(delivered::add);
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      return Mono.defer(() -> {
        if (sink.tryEmitNext(message).isSuccess()) {
          return Mono.empty();
        }
        failures.incrementAndGet();
        return Mono.error(new RuntimeException("Failed to enqueue message"));
      });
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void concurrentSends_allArriveOnce_inEachSendersOrder() throws Exception {
    int threads = 8;
    int perThread = 2_000;
    UnicastTransport target = new UnicastTransport();
    SerializingTransportProvider.SerializedTransport serialized = new SerializingTransportProvider.SerializedTransport(target);
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
          serialized.sendMessage(new JSONRPCNotification("2.0", "t" + sender, i)).block();
        }
      });
      thread.start();
      senders.add(thread);
    }
    start.countDown();
    for (Thread thread : senders) {
      thread.join(TimeUnit.SECONDS.toMillis(60));
      assertTrue(!thread.isAlive(), "sender stuck");
    }

    assertEquals(0, target.failures.get(), "no concurrent emission reached the transport");
    assertEquals(threads * perThread, target.delivered.size());
    Map<String, Integer> next = new HashMap<>();
    for (JSONRPCMessage message : target.delivered) {
      JSONRPCNotification n = (JSONRPCNotification) message;
      int expected = next.getOrDefault(n.method(), 0);
      assertEquals(expected, n.params(), "messages of " + n.method() + " in order, none lost or repeated");
      next.put(n.method(), expected + 1);
    }
  }
}
