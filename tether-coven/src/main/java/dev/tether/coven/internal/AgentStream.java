package dev.tether.coven.internal;

import dev.tether.api.Frame;
import dev.tether.api.MsgIds;
import dev.tether.api.TetherException;
import dev.tether.client.AttachmentInfo;
import dev.tether.coven.CovenWelcome;
import dev.tether.coven.internal.proto.AgentMessage;
import dev.tether.coven.internal.proto.CancelRequest;
import dev.tether.coven.internal.proto.CovenControlGrpc;
import dev.tether.coven.internal.proto.Heartbeat;
import dev.tether.coven.internal.proto.InjectContext;
import dev.tether.coven.internal.proto.InjectionAck;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.RegisterAgent;
import dev.tether.coven.internal.proto.SendMessage;
import dev.tether.coven.internal.proto.ServerMessage;
import dev.tether.coven.internal.proto.ToolDefinition;
import dev.tether.coven.internal.proto.Welcome;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One {@code AgentStream} call: registers, waits for {@code Welcome}, serves {@code SendMessage}s
 * one at a time in arrival order, acknowledges injections, answers cancels, routes tool approvals
 * and pack-tool results to the request that asked ({@link ToolBroker}), sends heartbeats on
 * schedule, and reports how it ended through {@link #ended()}.
 *
 * <p>Design: gRPC delivers server messages one at a time; everything else runs on the bridge's
 * executor or is handed there by the timer. One lock guards the request queue, the current turn
 * and the outbound half of the call (a gRPC {@code StreamObserver} is not thread-safe, and turns,
 * heartbeats and acks write from different threads). Nothing blocks while holding it: writes only
 * buffer in gRPC. After the stream ends, writes are dropped and the current turn is abandoned
 * (its agent gets a {@code control.cancel}).
 */
final class AgentStream implements ClientResponseObserver<AgentMessage, ServerMessage> {
  private static final int MAX_QUEUED = 64;

  private final Bridge bridge;
  private final RegisterAgent registration;
  private final Queue<String> injections;
  private final UserMessageTranslator translator;
  private final ToolBroker tools;
  private final Duration registrationTimeout;
  private final Duration shutdownGrace;
  private final CompletableFuture<StreamEnd> ended = new CompletableFuture<>();

  private final ReentrantLock lock = new ReentrantLock();
  private ClientCallStreamObserver<AgentMessage> outbound; // guarded by lock
  private boolean outboundClosed; // guarded by lock
  private boolean welcomed; // guarded by lock
  private String shutdownReason; // guarded by lock; set when the gateway asked us to leave
  private final Deque<SendMessage> queue = new ArrayDeque<>(); // guarded by lock
  private Turn current; // guarded by lock
  private volatile Future<?> heartbeats;
  private volatile Future<?> registrationDeadline;

  AgentStream(Bridge bridge, RegisterAgent registration, Queue<String> injections, Duration registrationTimeout,
      Duration shutdownGrace) {
    this.bridge = bridge;
    this.registration = registration;
    this.injections = injections;
    this.translator = new UserMessageTranslator(bridge.validator());
    this.tools = new ToolBroker(bridge, this::write);
    this.registrationTimeout = registrationTimeout;
    this.shutdownGrace = shutdownGrace;
  }

  /** Opens the call on {@code stub} and sends the registration. */
  CompletableFuture<StreamEnd> open(CovenControlGrpc.CovenControlStub stub) {
    stub.agentStream(this);
    write(AgentMessage.newBuilder().setRegister(registration).build());
    registrationDeadline = bridge.timer().schedule(() -> bridge.executor().execute(() -> {
      if (!isWelcomed()) {
        end(new StreamEnd(StreamEnd.Kind.FAILED, "no Welcome within " + registrationTimeout.toSeconds() + " s",
            false, Status.DEADLINE_EXCEEDED), true);
      }
    }), registrationTimeout.toMillis(), TimeUnit.MILLISECONDS);
    return ended;
  }

  CompletableFuture<StreamEnd> ended() {
    return ended;
  }

  /** Closes the stream from our side. */
  void close() {
    end(new StreamEnd(StreamEnd.Kind.CLOSED, "closed", isWelcomed(), Status.OK), true);
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<AgentMessage> requestStream) {
    lock.lock();
    try {
      outbound = requestStream;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void onNext(ServerMessage message) {
    switch (message.getPayloadCase()) {
      case WELCOME -> welcome(message.getWelcome());
      case REGISTRATION_ERROR -> {
        var e = message.getRegistrationError();
        String detail = e.getReason() + (e.getSuggestedId().isEmpty() ? "" : " (the gateway suggests agent id " + e.getSuggestedId() + ")");
        end(new StreamEnd(StreamEnd.Kind.REJECTED, detail, false, Status.OK), true);
      }
      case SEND_MESSAGE -> enqueue(message.getSendMessage());
      case CANCEL_REQUEST -> cancel(message.getCancelRequest());
      case INJECT_CONTEXT -> inject(message.getInjectContext());
      case SHUTDOWN -> shutdown(message.getShutdown().getReason());
      case TOOL_APPROVAL -> tools.onApproval(message.getToolApproval());
      case PACK_TOOL_RESULT -> tools.onPackToolResult(message.getPackToolResult());
      default -> { } // a payload this proto does not know
    }
  }

  @Override
  public void onError(Throwable t) {
    Status status = Status.fromThrowable(t);
    StringBuilder detail = new StringBuilder(status.getCode().toString());
    if (status.getDescription() != null) {
      detail.append(": ").append(status.getDescription());
    }
    if (status.getCause() != null && status.getCause().getMessage() != null) {
      detail.append(" (").append(status.getCause().getMessage()).append(')'); // e.g. "Connection refused"
    }
    end(new StreamEnd(StreamEnd.Kind.FAILED, detail.toString(), isWelcomed(), status), false);
  }

  @Override
  public void onCompleted() {
    String reason;
    lock.lock();
    try {
      reason = shutdownReason;
    } finally {
      lock.unlock();
    }
    end(reason != null
        ? new StreamEnd(StreamEnd.Kind.SHUTDOWN, reason, true, Status.OK)
        : new StreamEnd(StreamEnd.Kind.FAILED, "the gateway closed the stream", isWelcomed(), Status.UNAVAILABLE), false);
  }

  private void welcome(Welcome w) {
    lock.lock();
    try {
      welcomed = true;
    } finally {
      lock.unlock();
    }
    registrationDeadline.cancel(false);
    long period = bridge.heartbeat().toMillis();
    heartbeats = bridge.timer().scheduleAtFixedRate(() -> bridge.executor().execute(() -> write(AgentMessage.newBuilder()
        .setHeartbeat(Heartbeat.newBuilder().setTimestampMs(System.currentTimeMillis())).build())), period, period, TimeUnit.MILLISECONDS);
    List<String> tools = w.getAvailableToolsList().stream().map(ToolDefinition::getName).toList();
    safely(() -> bridge.listener().onRegistered(new CovenWelcome(w.getServerId(), w.getAgentId(), w.getInstanceId(), w.getPrincipalId(), tools)));
  }

  private void enqueue(SendMessage message) {
    if (message.getRequestId().isEmpty()) {
      safely(() -> bridge.listener().onWarning("ignored a SendMessage without request_id"));
      return;
    }
    boolean startNow;
    lock.lock();
    try {
      if (shutdownReason != null || queue.size() >= MAX_QUEUED) {
        writeLocked(ReplyTranslator.error(message.getRequestId(), shutdownReason != null
            ? "SHUTTING_DOWN: the agent is leaving and takes no new requests"
            : "BUSY: " + MAX_QUEUED + " requests are already waiting for this agent"));
        return;
      }
      queue.addLast(message);
      startNow = current == null;
    } finally {
      lock.unlock();
    }
    if (startNow) {
      bridge.executor().execute(this::startNext);
    }
  }

  /** Starts the next queued request unless one is running. */
  private void startNext() {
    SendMessage next;
    Turn turn;
    lock.lock();
    try {
      if (current != null || outboundClosed || queue.isEmpty()) {
        return;
      }
      next = queue.pollFirst();
      String msgId = MsgIds.host();
      turn = new Turn(bridge, next.getRequestId(), msgId, UserMessageTranslator.session(next.getThreadId()), this::respond, tools);
      current = turn;
    } finally {
      lock.unlock();
    }
    SendMessage request = next;
    safely(() -> bridge.listener().onRequest(request.getRequestId(), request.getThreadId(), request.getAttachmentsCount()));
    turn.finished().whenCompleteAsync((v, t) -> {
      lock.lock();
      try {
        if (current == turn) {
          current = null;
        }
      } finally {
        lock.unlock();
      }
      maybeLeaveAfterShutdown();
      startNext();
    }, bridge.executor());
    List<String> injected = List.copyOf(injections); // consumed only once the message is built
    Turn started = turn;
    AttachmentStorer.store(bridge, request).whenCompleteAsync((stored, failure) -> {
      if (failure != null) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        String why = cause instanceof TetherException e ? e.code() + ": " + e.getMessage()
            : "UNAVAILABLE: the attachments could not be stored on the tether host: " + Turn.message(cause);
        started.endWith(ReplyTranslator.error(request.getRequestId(), why));
        return;
      }
      forward(request, started, injected, stored);
    }, bridge.executor());
  }

  /** Translates the request (its stored attachments named) and starts its turn. */
  private void forward(SendMessage request, Turn turn, List<String> injected,
      Map<Integer, AttachmentInfo> stored) {
    Frame frame;
    try {
      frame = translator.toFrame(request, turn.msgId(), injected, stored);
    } catch (TetherException e) {
      turn.endWith(ReplyTranslator.error(request.getRequestId(), e.code() + ": " + e.getMessage()));
      return;
    } catch (RuntimeException e) {
      turn.endWith(ReplyTranslator.error(request.getRequestId(), "INTERNAL: " + Turn.message(e)));
      return;
    }
    injected.forEach(injections::remove);
    Frame posted = frame;
    safely(() -> bridge.listener().onForwarded(request.getRequestId(), posted));
    turn.start(frame);
  }

  /** Writes one event of the current request and reports a terminal one. */
  private void respond(MessageResponse response) {
    write(AgentMessage.newBuilder().setResponse(response).build());
    if (ReplyTranslator.isTerminal(response)) {
      String outcome = switch (response.getEventCase()) {
        case DONE -> "done";
        case CANCELLED -> "cancelled";
        default -> "error: " + response.getError();
      };
      safely(() -> bridge.listener().onRequestEnded(response.getRequestId(), outcome));
    }
  }

  private void cancel(CancelRequest request) {
    String reason = request.hasReason() ? request.getReason() : "cancelled";
    Turn turn;
    lock.lock();
    try {
      turn = current != null && current.requestId().equals(request.getRequestId()) ? current : null;
      if (turn == null && queue.removeIf(m -> m.getRequestId().equals(request.getRequestId()))) {
        writeLocked(ReplyTranslator.cancelled(request.getRequestId(), reason));
        return;
      }
    } finally {
      lock.unlock();
    }
    if (turn != null) {
      turn.cancel(reason);
    }
  }

  private void inject(InjectContext injection) {
    InjectionAck.Builder ack = InjectionAck.newBuilder().setInjectionId(injection.getInjectionId());
    if (injection.getContent().isBlank()) {
      ack.setAccepted(false).setReason("the injection has no content");
    } else {
      String source = injection.hasSource() && !injection.getSource().isEmpty() ? injection.getSource() : "coven";
      injections.add("[context from " + source + "]\n" + injection.getContent());
      ack.setAccepted(true);
    }
    write(AgentMessage.newBuilder().setInjectionAck(ack).build());
  }

  /** The gateway asked us to leave: no new requests; once the current one ends, half-close. */
  private void shutdown(String reason) {
    List<SendMessage> dropped;
    Turn turn;
    lock.lock();
    try {
      shutdownReason = reason.isEmpty() ? "shutdown requested" : reason;
      dropped = List.copyOf(queue);
      queue.clear();
      for (SendMessage m : dropped) {
        writeLocked(ReplyTranslator.error(m.getRequestId(), "SHUTTING_DOWN: the gateway asked the agent to leave"));
      }
      turn = current;
    } finally {
      lock.unlock();
    }
    if (turn != null) {
      bridge.timer().schedule(() -> bridge.executor().execute(() -> turn.cancel("the gateway is shutting down")),
          shutdownGrace.toMillis(), TimeUnit.MILLISECONDS);
    }
    maybeLeaveAfterShutdown();
  }

  private void maybeLeaveAfterShutdown() {
    String reason;
    lock.lock();
    try {
      if (shutdownReason == null || current != null) {
        return;
      }
      reason = shutdownReason;
    } finally {
      lock.unlock();
    }
    end(new StreamEnd(StreamEnd.Kind.SHUTDOWN, reason, true, Status.OK), true);
  }

  private void end(StreamEnd end, boolean closeOutbound) {
    Turn turn;
    ClientCallStreamObserver<AgentMessage> call;
    lock.lock();
    try {
      if (ended.isDone()) {
        return;
      }
      call = outboundClosed ? null : outbound;
      outboundClosed = true;
      turn = current;
      current = null;
      queue.clear();
    } finally {
      lock.unlock();
    }
    if (heartbeats != null) {
      heartbeats.cancel(false);
    }
    if (registrationDeadline != null) {
      registrationDeadline.cancel(false);
    }
    if (turn != null) {
      turn.abandon();
    }
    if (call != null && closeOutbound) {
      try {
        if (end.kind() == StreamEnd.Kind.SHUTDOWN) {
          call.onCompleted(); // a clean goodbye
        } else {
          call.cancel(end.detail(), null);
        }
      } catch (RuntimeException e) {
        // the call was already over
      }
    }
    ended.complete(end);
  }

  private boolean isWelcomed() {
    lock.lock();
    try {
      return welcomed;
    } finally {
      lock.unlock();
    }
  }

  private void write(AgentMessage message) {
    lock.lock();
    try {
      writeLocked(message);
    } finally {
      lock.unlock();
    }
  }

  private void writeLocked(MessageResponse response) {
    writeLocked(AgentMessage.newBuilder().setResponse(response).build());
  }

  private void writeLocked(AgentMessage message) {
    if (outboundClosed || outbound == null) {
      return;
    }
    try {
      outbound.onNext(message);
    } catch (RuntimeException e) {
      outboundClosed = true; // the call is over; onError reports why
    }
  }

  private void safely(Runnable listenerCall) {
    try {
      listenerCall.run();
    } catch (RuntimeException e) {
      // a listener's failure is not ours
    }
  }
}
