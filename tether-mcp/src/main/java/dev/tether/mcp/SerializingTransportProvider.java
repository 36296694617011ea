package dev.tether.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Wraps a transport provider so that each session's outgoing messages are handed to the
 * transport one at a time.
 *
 * <p>Why: the SDK's stdio transport puts outgoing messages into a unicast sink with
 * {@code tryEmitNext}, which fails when two threads emit at once; the failure ends the session's
 * message loop and the server goes deaf. Our tools are asynchronous, so their results complete on
 * other threads (Reactor's parallel scheduler, the store's appender and timer threads) while the
 * transport's own thread answers other requests. Here every message goes through one queue
 * ({@link Sinks.EmitFailureHandler#busyLooping} resolves the brief contention of concurrent
 * emitters) and a single subscriber passes them on in order. As with the SDK's transport, the
 * returned {@code Mono} completes once the message is queued. Thread-safe.
 */
final class SerializingTransportProvider implements McpServerTransportProvider {
  private static final System.Logger LOG = System.getLogger(SerializingTransportProvider.class.getName());

  private final McpServerTransportProvider delegate;

  SerializingTransportProvider(McpServerTransportProvider delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    delegate.setSessionFactory(transport -> sessionFactory.create(new SerializedTransport(transport)));
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

  /** One session's transport with serialized {@link #sendMessage}. */
  static final class SerializedTransport implements McpServerTransport {
    private static final Sinks.EmitFailureHandler RETRY_WHILE_CONTENDED =
        Sinks.EmitFailureHandler.busyLooping(Duration.ofSeconds(5));

    private final McpServerTransport delegate;
    private final Sinks.Many<JSONRPCMessage> outgoing = Sinks.many().unicast().onBackpressureBuffer();

    SerializedTransport(McpServerTransport delegate) {
      this.delegate = delegate;
      outgoing.asFlux()
          .concatMap(message -> delegate.sendMessage(message).onErrorResume(e -> {
            LOG.log(System.Logger.Level.WARNING, "could not send an MCP message: " + e.getMessage());
            return Mono.empty();
          }))
          .subscribe();
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      return Mono.fromRunnable(() -> outgoing.emitNext(message, RETRY_WHILE_CONTENDED));
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.fromRunnable(() -> outgoing.tryEmitComplete()).then(delegate.closeGracefully());
    }

    @Override
    public void close() {
      outgoing.tryEmitComplete();
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
  }
}
