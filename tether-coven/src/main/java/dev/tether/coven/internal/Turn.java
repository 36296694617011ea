package dev.tether.coven.internal;

import dev.tether.api.Frame;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.coven.internal.proto.MessageResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One coven request on the tether side: sends its {@code user.message}, long-polls the agent's
 * frames that answer it, and emits the translated events, ending in exactly one terminal event.
 *
 * <p>Design: fully asynchronous. Each poll's callback runs on the bridge's executor and starts the
 * next poll, so one request holds no thread while the agent thinks. The cursor starts at the
 * seq the host gave the {@code user.message}; the poll filters on channel {@code coven}, the
 * thread's session and {@code reply_to_msg_id}, and skips host-to-guest frames (our own
 * {@code control.cancel} carries the same msg_id).
 *
 * <p>Exactly one terminal event: {@link #emit} holds a lock while it checks and sets
 * {@code terminalSent}, so a cancel racing the agent's {@code assistant.done} yields either
 * {@code cancelled} or {@code done}, never both. After a cancel the request still waits (at most
 * {@link Bridge#cancelDrain()}) for the agent to stop, silently, so the next request does not
 * overlap it. {@link #finished()} completes when the request is over on both sides.
 */
final class Turn {
  private final Bridge bridge;
  private final String requestId;
  private final String msgId;
  private final SessionKey session;
  private final ReplyTranslator translator;
  private final Consumer<MessageResponse> out;
  private final ToolBroker tools;
  private volatile boolean approveAll;
  private final CompletableFuture<Void> finished = new CompletableFuture<>();
  private final ReentrantLock lock = new ReentrantLock();
  private boolean terminalSent; // guarded by lock
  private volatile CompletableFuture<?> pending;
  private volatile Future<?> deadline;

  Turn(Bridge bridge, String requestId, String msgId, SessionKey session, Consumer<MessageResponse> out, ToolBroker tools) {
    this.bridge = bridge;
    this.requestId = requestId;
    this.msgId = msgId;
    this.session = session;
    this.translator = new ReplyTranslator(requestId, bridge.validator());
    this.out = out;
    this.tools = tools;
  }

  SessionKey session() {
    return session;
  }

  /** Whether the gateway answered one of this request's approvals with {@code approve_all}. */
  boolean approvesAll() {
    return approveAll;
  }

  void approveAll() {
    approveAll = true;
  }

  /** Emits one non-terminal event (a tool state) unless the request already ended. */
  void event(MessageResponse event) {
    emit(List.of(event));
  }

  String requestId() {
    return requestId;
  }

  String msgId() {
    return msgId;
  }

  /** Ends the request before anything reached the agent, with {@code terminal}. */
  void endWith(MessageResponse terminal) {
    emit(List.of(terminal));
    finish();
  }

  /** Completes once the request is over: terminal event sent and the agent done or drained. */
  CompletableFuture<Void> finished() {
    return finished;
  }

  /** Sends {@code frame} (the request's user.message) and follows the answer. */
  void start(Frame frame) {
    deadline = bridge.timer().schedule(() -> bridge.executor().execute(this::timedOut),
        bridge.turnTimeout().toMillis(), TimeUnit.MILLISECONDS);
    CompletableFuture<SendReceipt> sent = bridge.client().send(bridge.instance(), frame);
    pending = sent;
    sent.whenCompleteAsync((receipt, failure) -> {
      if (failure != null) {
        fail("the tether host refused the message: ", failure);
      } else {
        poll(receipt.ingressSeq());
      }
    }, bridge.executor());
  }

  private void poll(long cursor) {
    if (finished.isDone()) {
      return;
    }
    PollRequest request = new PollRequest(session.channel(), session.id(), cursor, PollRequest.MAX_LIMIT,
        bridge.pollWaitMs(), Set.of(), msgId);
    CompletableFuture<FramePage> page = bridge.client().poll(bridge.instance(), request);
    pending = page;
    page.whenCompleteAsync((result, failure) -> {
      if (finished.isDone()) {
        return;
      }
      if (failure != null) {
        fail("reading the agent's answer failed: ", failure);
        return;
      }
      for (Frame f : result.frames()) {
        if (f.isHostToGuest()) {
          continue;
        }
        if (ToolBroker.handles(f)) {
          emit(tools.onAgentFrame(this, f));
          continue;
        }
        emit(translator.onFrame(f));
        if (translator.finished()) {
          finish();
          return;
        }
      }
      poll(Math.max(cursor, result.nextSeq()));
    }, bridge.executor());
  }

  /**
   * Cancels the request: a {@code control.cancel} for its msg_id goes to the agent and the gateway
   * gets {@code cancelled} at once, unless the request already ended.
   */
  void cancel(String reason) {
    if (!emit(List.of(ReplyTranslator.cancelled(requestId, reason)))) {
      return;
    }
    Frame cancel = Frame.of(session, msgId, new Payload.Cancel(Map.of()));
    bridge.client().send(bridge.instance(), cancel).whenComplete((r, t) -> {
      if (t != null) {
        bridge.listener().onWarning("cancelling " + requestId + " on the tether side failed: " + message(t));
      }
    });
    bridge.timer().schedule(() -> bridge.executor().execute(this::finish), bridge.cancelDrain().toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Ends the request without telling the gateway (its stream is gone); the agent is told to stop. */
  void abandon() {
    lock.lock();
    try {
      terminalSent = true;
    } finally {
      lock.unlock();
    }
    bridge.client().send(bridge.instance(), Frame.of(session, msgId, new Payload.Cancel(Map.of())));
    finish();
  }

  private void timedOut() {
    if (emit(List.of(ReplyTranslator.error(requestId, "TIMEOUT: the agent did not finish within "
        + bridge.turnTimeout().toSeconds() + " s")))) {
      bridge.client().send(bridge.instance(), Frame.of(session, msgId, new Payload.Cancel(Map.of())));
    }
    finish();
  }

  private void fail(String context, Throwable failure) {
    emit(List.of(ReplyTranslator.error(requestId, context + message(failure))));
    finish();
  }

  /** Emits {@code events} up to the first terminal one, unless a terminal event went out already. */
  private boolean emit(List<MessageResponse> events) {
    lock.lock();
    try {
      for (MessageResponse event : events) {
        if (terminalSent) {
          return false;
        }
        terminalSent = ReplyTranslator.isTerminal(event);
        out.accept(event);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void finish() {
    if (finished.isDone()) {
      return;
    }
    Future<?> d = deadline;
    if (d != null) {
      d.cancel(false);
    }
    CompletableFuture<?> p = pending;
    if (p != null && !p.isDone()) {
      p.cancel(false); // ends a long-poll in flight
    }
    tools.forget(this); // answers that come later are refused
    finished.complete(null);
  }

  /** The failure as a sentence, with the tether code first when there is one. */
  static String message(Throwable t) {
    Throwable cause = t;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof TetherException te) {
      return te.code() + ": " + te.getMessage();
    }
    if (cause instanceof CancellationException) {
      return "cancelled";
    }
    return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
  }
}
