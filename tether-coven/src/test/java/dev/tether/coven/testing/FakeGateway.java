package dev.tether.coven.testing;

import dev.tether.coven.internal.proto.AgentMessage;
import dev.tether.coven.internal.proto.CovenControlGrpc;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.RegisterAgent;
import dev.tether.coven.internal.proto.ServerMessage;
import dev.tether.coven.internal.proto.Welcome;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.UncheckedIOException;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A coven gateway for tests (published in tether-coven's test-jar for other modules' end-to-end
 * tests): a real grpc-java server on 127.0.0.1 serving
 * {@code coven.CovenControl/AgentStream} from the same proto. It answers {@code RegisterAgent}
 * with {@link #onRegister} (a Welcome by default), records every message each stream sends, and
 * lets the test send server messages on a stream.
 */
public final class FakeGateway implements AutoCloseable {
  public final BlockingQueue<Conn> connections = new LinkedBlockingQueue<>();
  public final List<Metadata> headers = new CopyOnWriteArrayList<>();
  /** Every message any stream sent, exactly as its bytes came off the wire. */
  public final List<byte[]> wireMessages = new CopyOnWriteArrayList<>();
  public volatile Function<RegisterAgent, ServerMessage> onRegister = reg -> ServerMessage.newBuilder()
      .setWelcome(Welcome.newBuilder().setServerId("gw-test").setAgentId(reg.getAgentId()).setInstanceId("inst-" + reg.getAgentId().substring(0, 4))
          .setPrincipalId("principal-1"))
      .build();
  /** Which call headers are let in; the rest are refused with UNAUTHENTICATED. */
  public volatile Predicate<Metadata> auth = m -> true;

  private final Server server;

  private FakeGateway(int port) throws IOException {
    this(port, null, null);
  }

  private FakeGateway(int port, java.io.File certChain, java.io.File privateKey) throws IOException {
    ServerInterceptor recordAndCheck = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata md, ServerCallHandler<Q, R> next) {
        headers.add(md);
        if (!auth.test(md)) {
          call.close(Status.UNAUTHENTICATED.withDescription("invalid or expired token"), new Metadata());
          return new ServerCall.Listener<>() {};
        }
        return next.startCall(call, md);
      }
    };
    ServerInterceptor recordBytes = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata md, ServerCallHandler<Q, R> next) {
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<Q>(next.startCall(call, md)) {
          @Override
          public void onMessage(Q message) {
            wireMessages.add((byte[]) message);
            super.onMessage(message);
          }
        };
      }
    };
    ServerServiceDefinition parsed = ServerInterceptors.intercept(new Service(), recordAndCheck);
    ServerServiceDefinition raw = ServerInterceptors.useMarshalledMessages(parsed, new BytesMarshaller());
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port));
    if (certChain != null) {
      builder.useTransportSecurity(certChain, privateKey);
    }
    server = builder
        .maxInboundMessageSize(64 << 20)
        .addService(ServerInterceptors.intercept(raw, recordBytes))
        .build()
        .start();
  }

  public static FakeGateway start() throws IOException {
    return new FakeGateway(0);
  }

  /** A gateway on {@code port}, for "the server comes back" tests. */
  /** A gateway serving TLS with {@code certChain} and its PKCS#8 {@code privateKey} (PEM files). */
  public static FakeGateway startTls(java.io.File certChain, java.io.File privateKey) throws IOException {
    return new FakeGateway(0, certChain, privateKey);
  }

  public static FakeGateway start(int port) throws IOException {
    return new FakeGateway(port);
  }

  public int port() {
    return server.getPort();
  }

  public String target() {
    return "127.0.0.1:" + port();
  }

  public Conn nextConnection(Duration timeout) throws InterruptedException {
    Conn c = connections.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (c == null) {
      throw new AssertionError("no stream opened within " + timeout);
    }
    return c;
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(10, TimeUnit.SECONDS);
  }

  private static final class BytesMarshaller implements MethodDescriptor.Marshaller<byte[]> {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private final class Service extends CovenControlGrpc.CovenControlImplBase {
    @Override
    public StreamObserver<AgentMessage> agentStream(StreamObserver<ServerMessage> responses) {
      Conn conn = new Conn(responses);
      connections.add(conn);
      return conn;
    }
  }

  /** One agent stream as the gateway sees it. */
  public final class Conn implements StreamObserver<AgentMessage> {
    public final BlockingQueue<AgentMessage> received = new LinkedBlockingQueue<>();
    public final List<AgentMessage> all = new CopyOnWriteArrayList<>();
    /** Completes with OK when the agent half-closes, else with the error's status. */
    public final CompletableFuture<Status> closed = new CompletableFuture<>();
    private final StreamObserver<ServerMessage> out;

    Conn(StreamObserver<ServerMessage> out) {
      this.out = out;
    }

    public synchronized void send(ServerMessage m) {
      out.onNext(m);
    }

    public synchronized void complete() {
      out.onCompleted();
    }

    @Override
    public void onNext(AgentMessage m) {
      all.add(m);
      received.add(m);
      if (m.hasRegister()) {
        send(onRegister.apply(m.getRegister()));
      }
    }

    @Override
    public void onError(Throwable t) {
      closed.complete(Status.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
      closed.complete(Status.OK);
      try {
        complete();
      } catch (RuntimeException e) {
        // already closed
      }
    }

    public AgentMessage next(Duration timeout) throws InterruptedException {
      AgentMessage m = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (m == null) {
        throw new AssertionError("no message within " + timeout + "; got so far: " + all);
      }
      return m;
    }

    /** The responses to {@code requestId} up to and including its terminal event. */
    public List<MessageResponse> responsesUntilTerminal(String requestId, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      List<MessageResponse> got = new ArrayList<>();
      while (true) {
        long left = deadline - System.nanoTime();
        AgentMessage m = received.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
        if (m == null) {
          throw new AssertionError("no terminal event for " + requestId + " within " + timeout + "; got " + got);
        }
        if (m.hasResponse() && m.getResponse().getRequestId().equals(requestId)) {
          got.add(m.getResponse());
          switch (m.getResponse().getEventCase()) {
            case DONE, ERROR, CANCELLED -> {
              return got;
            }
            default -> { }
          }
        }
      }
    }

    /** Every message received for {@code window}, without waiting for anything in particular. */
    public List<AgentMessage> drain(Duration window) throws InterruptedException {
      Thread.sleep(window.toMillis());
      List<AgentMessage> got = new ArrayList<>();
      received.drainTo(got);
      return got;
    }
  }
}
