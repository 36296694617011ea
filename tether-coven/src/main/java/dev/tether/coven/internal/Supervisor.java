package dev.tether.coven.internal;

import dev.tether.coven.CovenTermination;
import dev.tether.coven.internal.proto.CovenControlGrpc;
import dev.tether.coven.internal.proto.RegisterAgent;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.time.Duration;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps one {@link AgentStream} open: registers with the same {@code agent_id} on every stream,
 * and after a dropped stream or {@code UNAVAILABLE} opens a new one after a capped, jittered
 * exponential backoff (the attempt count restarts once a stream was welcomed). It stops for good
 * on {@code Shutdown}, {@code RegistrationError}, a refusal that retrying cannot fix
 * ({@code UNAUTHENTICATED}, {@code PERMISSION_DENIED}, {@code INVALID_ARGUMENT},
 * {@code UNIMPLEMENTED}) or {@link #close()}, and completes {@link #termination()} once.
 *
 * <p>Injected context waits in a queue shared by all streams, so it reaches the next turn even
 * across a reconnect. Thread-safe; one lock guards the current stream and the closed flag.
 */
public final class Supervisor {
  private static final Set<Status.Code> FATAL = Set.of(
      Status.Code.UNAUTHENTICATED, Status.Code.PERMISSION_DENIED, Status.Code.INVALID_ARGUMENT, Status.Code.UNIMPLEMENTED);

  private final Bridge bridge;
  private final ManagedChannel channel;
  private final String target;
  private final RegisterAgent registration;
  private final Backoff backoff;
  private final Duration registrationTimeout;
  private final Duration shutdownGrace;
  private final Queue<String> injections = new ConcurrentLinkedQueue<>();
  private final CompletableFuture<CovenTermination> termination = new CompletableFuture<>();
  private final AtomicBoolean terminated = new AtomicBoolean();
  private final ReentrantLock lock = new ReentrantLock();
  private AgentStream stream; // guarded by lock
  private boolean closed; // guarded by lock
  private int attempt; // only touched by connect/onEnd, which never overlap

  public Supervisor(Bridge bridge, ManagedChannel channel, String target, RegisterAgent registration, Backoff backoff,
      Duration registrationTimeout, Duration shutdownGrace) {
    this.bridge = Objects.requireNonNull(bridge, "bridge");
    this.channel = Objects.requireNonNull(channel, "channel");
    this.target = Objects.requireNonNull(target, "target");
    this.registration = Objects.requireNonNull(registration, "registration");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.registrationTimeout = Objects.requireNonNull(registrationTimeout, "registrationTimeout");
    this.shutdownGrace = Objects.requireNonNull(shutdownGrace, "shutdownGrace");
  }

  /** Opens the first stream; returns {@link #termination()}. */
  public CompletableFuture<CovenTermination> start() {
    bridge.executor().execute(this::connect);
    return termination;
  }

  public CompletableFuture<CovenTermination> termination() {
    return termination;
  }

  /** Ends the current stream and stops reconnecting. Idempotent. */
  public void close() {
    AgentStream s;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      s = stream;
    } finally {
      lock.unlock();
    }
    if (s != null) {
      s.close();
    }
    terminate(new CovenTermination(CovenTermination.Reason.CLOSED, "closed"));
  }

  private void connect() {
    AgentStream s = new AgentStream(bridge, registration, injections, registrationTimeout, shutdownGrace);
    lock.lock();
    try {
      if (closed) {
        return;
      }
      stream = s;
    } finally {
      lock.unlock();
    }
    int n = attempt + 1;
    safely(() -> bridge.listener().onConnecting(target, n));
    channel.resetConnectBackoff(); // our backoff governs, not the channel's own
    CompletableFuture<StreamEnd> ended;
    try {
      ended = s.open(CovenControlGrpc.newStub(channel));
    } catch (RuntimeException e) {
      ended = CompletableFuture.completedFuture(
          new StreamEnd(StreamEnd.Kind.FAILED, Turn.message(e), false, Status.fromThrowable(e)));
    }
    ended.whenCompleteAsync((end, t) -> onEnd(end), bridge.executor());
  }

  private void onEnd(StreamEnd end) {
    lock.lock();
    try {
      if (closed) {
        return;
      }
    } finally {
      lock.unlock();
    }
    switch (end.kind()) {
      case SHUTDOWN -> terminate(new CovenTermination(CovenTermination.Reason.SHUTDOWN, end.detail()));
      case REJECTED -> terminate(new CovenTermination(CovenTermination.Reason.REGISTRATION_REJECTED, end.detail()));
      case CLOSED -> terminate(new CovenTermination(CovenTermination.Reason.CLOSED, end.detail()));
      case FAILED -> {
        if (FATAL.contains(end.status().getCode())) {
          terminate(new CovenTermination(CovenTermination.Reason.REFUSED, end.detail()));
          return;
        }
        attempt = end.welcomed() ? 1 : attempt + 1;
        Duration delay = backoff.delay(attempt);
        safely(() -> bridge.listener().onDisconnected(end.detail(), delay));
        bridge.timer().schedule(() -> bridge.executor().execute(this::connect), delay.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
  }

  private void terminate(CovenTermination t) {
    lock.lock();
    try {
      closed = true;
    } finally {
      lock.unlock();
    }
    // The listener hears why before anyone waiting on termination wakes: a command that exits
    // when it completes would otherwise lose the reason (tether coven's exit code came without it).
    if (terminated.compareAndSet(false, true)) {
      safely(() -> bridge.listener().onTerminated(t));
      termination.complete(t);
    }
  }

  private static void safely(Runnable r) {
    try {
      r.run();
    } catch (RuntimeException e) {
      // a listener's failure is not ours
    }
  }
}
