package dev.tether.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * Wraps a transport provider so that each session's outgoing messages are handed to the
 * transport one at a time, in the order they were sent.
 *
 * <p>Why: the SDK's stdio transport puts outgoing messages into a unicast sink with
 * {@code tryEmitNext}, which fails when two threads emit at once; the failure ends the session's
 * message loop and the server goes deaf. Our tools are asynchronous, so their results complete on
 * other threads (Reactor's parallel scheduler, the store's appender and timer threads) while the
 * transport's own thread answers other requests. See {@link SerializedTransport} for how the
 * sends are serialized. Thread-safe.
 */
final class SerializingTransportProvider implements McpServerTransportProvider {
  private static final System.Logger LOG = System.getLogger(SerializingTransportProvider.class.getName());

  private final McpServerTransportProvider delegate;
  private final Runnable queued;

  /** {@code queued} is told of each outgoing message as it is queued (for the stdio drain's count). */
  SerializingTransportProvider(McpServerTransportProvider delegate, Runnable queued) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.queued = Objects.requireNonNull(queued, "queued");
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    delegate.setSessionFactory(transport -> sessionFactory.create(new SerializedTransport(transport, queued)));
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    return delegate.notifyClients(method, params);
  }

  @Override
  public Mono<Void> notifyClient(String sessionId, String method, Object params) {
    return delegate.notifyClient(sessionId, method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return delegate.closeGracefully();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public List<String> protocolVersions() {
    return delegate.protocolVersions();
  }

  /**
   * One session's transport with serialized {@link #sendMessage}.
   *
   * <p>Design: every send is put on a lock-free queue, and a single drain passes the queued
   * messages to the delegate one after another: the next {@code delegate.sendMessage} is
   * subscribed only after the previous one has completed or failed, so two sends never overlap
   * and messages leave in queue order (per sending thread, in the order it sent them). Whichever
   * thread wins the {@code wip} counter drains; the others only enqueue and return, so no thread
   * waits or spins. A send that completes synchronously does not recurse: its completion bumps
   * {@code wip} and the draining loop takes the next message. A failed send is logged and the
   * drain goes on with the next message. Nothing is dropped: a message accepted before
   * {@link #closeGracefully} is passed to the delegate before the delegate is closed.
   *
   * <p>Contract: as with the SDK's transport, the {@code Mono} returned by {@link #sendMessage}
   * completes once the message is queued; it fails with {@link IllegalStateException} once the
   * transport is closing or closed. Delegate calls run on the thread that sent or on the thread
   * that completed the previous send. Thread-safe.
   */
  static final class SerializedTransport implements McpServerTransport {
    private final McpServerTransport delegate;
    private final Runnable queued;
    private final Queue<Mono<Void>> pending = new ConcurrentLinkedQueue<>();
    /** Drain requests not yet seen by the draining thread; non-zero while a thread drains. */
    private final AtomicInteger wip = new AtomicInteger();
    /** True from subscribing to a delegate send until it completes or fails. */
    private volatile boolean sending;
    private volatile boolean closed;

    SerializedTransport(McpServerTransport delegate) {
      this(delegate, () -> { });
    }

    SerializedTransport(McpServerTransport delegate, Runnable queued) {
      this.delegate = Objects.requireNonNull(delegate, "delegate");
      this.queued = Objects.requireNonNull(queued, "queued");
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      Objects.requireNonNull(message, "message");
      return Mono.fromRunnable(() -> {
        if (closed) {
          throw new IllegalStateException("MCP transport is closed; message not sent");
        }
        queued.run();
        enqueue(Mono.defer(() -> delegate.sendMessage(message)).onErrorResume(e -> {
          LOG.log(System.Logger.Level.WARNING, "could not send an MCP message: " + e);
          return Mono.empty();
        }));
      });
    }

    /** Closes the delegate after every message accepted before this call has been passed on. */
    @Override
    public Mono<Void> closeGracefully() {
      return Mono.create((MonoSink<Void> done) -> {
        closed = true;
        enqueue(Mono.defer(delegate::closeGracefully)
            .doOnSuccess(ignored -> done.success())
            .doOnError(done::error)
            .onErrorResume(e -> Mono.empty()));
      });
    }

    @Override
    public void close() {
      closed = true;
      delegate.close();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return delegate.unmarshalFrom(data, typeRef);
    }

    @Override
    public List<String> protocolVersions() {
      return delegate.protocolVersions();
    }

    private void enqueue(Mono<Void> send) {
      pending.offer(send);
      drain();
    }

    /** Starts the next send if none is in flight; only one thread at a time runs the loop. */
    private void drain() {
      if (wip.getAndIncrement() != 0) {
        return;
      }
      int missed = 1;
      do {
        if (!sending) {
          Mono<Void> next = pending.poll();
          if (next != null) {
            sending = true;
            next.onErrorResume(e -> {
                LOG.log(System.Logger.Level.WARNING, "MCP send failed: " + e);
                return Mono.empty();
              })
              .doFinally(signal -> {
                sending = false;
                drain();
              })
              .subscribe();
          }
        }
        missed = wip.addAndGet(-missed);
      } while (missed != 0);
    }
  }
}
