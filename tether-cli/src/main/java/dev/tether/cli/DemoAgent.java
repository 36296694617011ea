package dev.tether.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.ImageData;
import dev.tether.api.LogFields;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.Turn;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.mcp.ChannelMediaClient;
import dev.tether.sessions.SessionLog;
import dev.tether.sessions.SessionPart;
import dev.tether.sessions.SessionStore;
import dev.tether.sessions.SessionTurn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The demo guest agent: long-polls an instance for {@code user.message} and
 * {@code control.cancel} frames on every channel and session, and answers each message following
 * the protocol: {@code status.presence thinking}, {@code assistant.delta}s, then
 * {@code assistant.done} carrying the request's {@code msg_id}, then {@code status.presence idle}.
 *
 * <p>Design: one thread polls; answers run on a small pool, chained per session so that the
 * messages of one session are answered in order while sessions proceed in parallel. Sessions are
 * keyed by {@link SessionKey} (channel and id) and kept in a {@link SessionStore}: each turn is a
 * JSONL line whose images are refs into the blob store, and the context for a reply is the newest
 * {@value #MAX_TURNS} turns with their images read back. A message that announces lazy media and
 * asks about it gets the announced images fetched first ({@link MediaPrefetch}). A {@code control.cancel} whose {@code msg_id} names a request
 * stops it: the reply ends early and its {@code assistant.done} carries {@code "cancelled":true}.
 * In approval mode ({@code serve --with-agent --agent-approval}) a message that asks for a chart
 * first gets an {@code event.tool_approval_request}, and the chart is drawn only after a
 * {@code control.tool_approval} that approves it ({@link ToolApproval}).
 * Thread-safe; {@link #close()} stops polling and waits briefly for answers in progress.
 */
final class DemoAgent implements AutoCloseable {
  static final int MAX_TURNS = 40;
  static final int MAX_CONTEXT_CHARS = 200_000;
  private static final long POLL_WAIT_MS = 25_000;
  private static final System.Logger LOG = System.getLogger(DemoAgent.class.getName());
  private static final CommandLog ASKS = CommandLog.named("tether.agent");

  private final TetherClient client;
  private final String instance;
  private final Replier replier;
  private final ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
    Thread t = new Thread(r, "tether-agent-reply");
    t.setDaemon(true);
    return t;
  });
  private final SessionStore sessions;
  private final MediaPrefetch media;
  private final Map<SessionKey, CompletableFuture<Void>> tails = new ConcurrentHashMap<>();
  private final Map<String, AtomicBoolean> cancels = new ConcurrentHashMap<>();
  private final ApprovalGate approvals = new ApprovalGate();
  private final Duration approvalTimeout; // null: draws without asking
  private volatile boolean running = true;
  private volatile CompletableFuture<FramePage> currentPoll;

  DemoAgent(TetherClient client, String instance, Replier replier, SessionStore sessions) {
    this(client, instance, replier, sessions, null);
  }

  /**
   * An agent that, when {@code approvalTimeout} is not null, asks a human before it draws a chart
   * ({@link ToolApproval}) and waits that long for the answer.
   */
  DemoAgent(TetherClient client, String instance, Replier replier, SessionStore sessions, Duration approvalTimeout) {
    this.approvalTimeout = approvalTimeout;
    this.client = client;
    this.instance = instance;
    this.replier = replier;
    this.sessions = sessions;
    this.media = new MediaPrefetch(ChannelMediaClient.of(client, instance));
  }

  /** Polls and answers until {@link #close()}; {@code afterSeq} is where reading starts. */
  void run(long afterSeq, Runnable onReady) throws InterruptedException {
    long cursor = afterSeq;
    boolean ready = false;
    while (running) {
      FramePage page;
      try {
        CompletableFuture<FramePage> poll = client.poll(instance, new PollRequest(null, null, cursor, PollRequest.MAX_LIMIT,
            ready ? POLL_WAIT_MS : 0, Set.of(FrameTypes.USER_MESSAGE, FrameTypes.CONTROL_CANCEL,
                FrameTypes.CONTROL_TOOL_APPROVAL), null));
        currentPoll = poll;
        if (!running) {
          poll.cancel(false);
        }
        page = poll.get(POLL_WAIT_MS + 60_000, TimeUnit.MILLISECONDS);
      } catch (CancellationException e) {
        break; // close() aborted the poll
      } catch (ExecutionException | TimeoutException e) {
        if (!running) {
          break;
        }
        ASKS.info("tether agent: poll failed (" + rootMessage(e) + "); retrying in 1 s");
        Thread.sleep(1000);
        continue;
      }
      if (!ready) {
        ready = true;
        onReady.run();
      }
      if (page.gap()) {
        System.err.println("tether agent: frames before seq " + page.oldestSeq() + " were evicted before they were read");
      }
      for (Frame f : page.frames()) {
        dispatch(f);
      }
      cursor = Math.max(cursor, page.nextSeq());
    }
  }

  private void dispatch(Frame frame) {
    String msgId = frame.msgId().orElse(null);
    SessionKey session = frame.session().orElse(SessionKey.host(SessionKey.DEFAULT_ID));
    if (FrameTypes.CONTROL_CANCEL.equals(frame.type())) {
      if (msgId != null) {
        cancels.computeIfAbsent(msgId, k -> new AtomicBoolean()).set(true);
        ASKS.info("tether agent: cancel " + msgId);
      }
      return;
    }
    if (FrameTypes.CONTROL_TOOL_APPROVAL.equals(frame.type())) {
      ToolApproval.deliver(approvals, frame, ASKS);
      return;
    }
    String id = msgId == null ? "seq-" + frame.seq() : msgId;
    Payload.UserMessage message;
    try {
      message = (Payload.UserMessage) frame.payloadView();
    } catch (TetherException | ClassCastException e) {
      // Still a turn: it ends with an error frame and idle presence, never in silence.
      ASKS.info("tether agent: cannot read seq " + frame.seq() + ": " + e.getMessage());
      enqueue(session, id, () -> endWithError(session, id, e));
      return;
    }
    if (ASKS.debugging()) {
      ASKS.debug("tether agent: received " + id + " seq " + frame.seq() + " in " + session,
          LogFields.of(instance, frame));
    }
    Frame request = frame.session().isPresent() ? frame : frame.toBuilder().session(session).build();
    AtomicBoolean cancelled = cancels.computeIfAbsent(id, k -> new AtomicBoolean());
    enqueue(session, id, () -> answer(session, id, request, message, cancelled));
  }

  /** Runs {@code task} after the session's earlier answers, on the pool. */
  private void enqueue(SessionKey session, String id, Runnable task) {
    CompletableFuture<Void> last = tails.compute(session, (k, tail) -> (tail == null ? CompletableFuture.<Void>completedFuture(null) : tail)
        .thenRunAsync(task, pool)
        .exceptionally(t -> {
          ASKS.info("tether agent: answering " + id + " failed: " + rootMessage(t));
          return null;
        }));
    // A session's entry lives while it has an answer queued or running, not for the agent's life.
    last.whenComplete((v, t) -> tails.remove(session, last));
  }

  private void answer(SessionKey session, String msgId, Frame request, Payload.UserMessage message, AtomicBoolean cancelled) {
    try {
      ASKS.info("tether agent: answering " + msgId + " in " + session
          + (message.images().isEmpty() ? "" : " (" + message.images().size() + (message.images().size() == 1 ? " image)" : " images)")),
          fields(session, msgId, FrameTypes.USER_MESSAGE));
      post(Frames.presence(session, msgId, Payload.Presence.THINKING));
      // Lazy media: fetched only when the message announces some and asks about it.
      MediaPrefetch.Result fetched = media.apply(session, message);
      message = fetched.message();
      String preface = String.join("\n", fetched.notes());
      if (!preface.isEmpty()) {
        ASKS.info("tether agent: " + msgId + ": " + preface.replace('\n', ' '));
        post(Frames.assistantDelta(session, msgId, preface + "\n"));
      }
      // The earlier turns, images read back from the blob store; then the request joins the session.
      SessionLog log = sessions.open(session);
      List<Turn> snapshot = log.assembleContext("", MAX_TURNS, MAX_CONTEXT_CHARS).turns();
      log.ingest(request);
      Replier.Reply reply;
      ToolApproval approval = approvalTimeout != null && ChartPainter.wantsChart(message.text())
          ? new ToolApproval(approvals, session, msgId, this::post, ASKS) : null;
      try {
        Optional<String> refusal = approval == null ? Optional.empty()
            : approval.ask(message.text(), approvalTimeout, cancelled::get);
        reply = refusal.isPresent() ? new Replier.Reply(refusal.get(), List.of())
            : replier.reply(snapshot, message, text -> postUnchecked(Frames.assistantDelta(session, msgId, text)), cancelled::get);
        if (approval != null && refusal.isEmpty()) {
          approval.ran(reply.images().size());
        }
      } catch (IOException | IllegalArgumentException e) {
        // IllegalArgumentException: a request the adapters refuse to build (say, a turn of empty
        // text stored by an older agent); the host still gets an answer instead of silence.
        reply = new Replier.Reply("Sorry, the model call failed: " + e.getMessage(), List.of());
      }
      if (!preface.isEmpty()) {
        reply = new Replier.Reply(preface + "\n" + reply.text(), reply.images());
      }
      Payload.AssistantDone done = cancelled.get()
          ? new Payload.AssistantDone(reply.text(), reply.images(), Map.of("cancelled", RawJson.of("true")))
          : Payload.AssistantDone.of(reply.text(), reply.images());
      // The answer is in the session (durably) before the host hears it is done. An empty answer
      // (cancelled before the first word) is not kept: it tells the model nothing, and Claude and
      // Gemini refuse a turn of empty text (LlmRequest.prepare throws for one).
      if (!reply.text().isEmpty() || !reply.images().isEmpty()) {
        List<SessionPart> parts = new ArrayList<>();
        parts.add(new SessionPart.Text(reply.text()));
        for (Image image : reply.images()) {
          parts.add(log.storeImage(ImageData.of(image), image.mediaType()));
        }
        log.append(SessionTurn.assistant(Instant.now(), parts.toArray(SessionPart[]::new)));
      }
      post(Frame.of(session, msgId, done));
      ASKS.debug("tether agent: answered " + msgId + " in " + session + (cancelled.get() ? " (cancelled)" : ""),
          fields(session, msgId, FrameTypes.ASSISTANT_DONE));
      post(Frames.presence(session, msgId, Payload.Presence.IDLE));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception | LinkageError | AssertionError e) {
      // Whatever went wrong (the session log, the model, the host), the turn ends visibly.
      ASKS.info("tether agent: answering " + msgId + " failed: " + rootMessage(e), fields(session, msgId, FrameTypes.ERROR));
      endWithError(session, msgId, e);
    } finally {
      cancels.remove(msgId);
    }
  }

  /**
   * Ends a turn that failed: an {@code error} frame ({@code {"code", "message"}}: the wire code of
   * a {@link TetherException}, otherwise {@code AGENT_FAILED}) and {@code idle} presence, so the
   * host never waits on silence. If the host cannot be reached either, one line says so.
   */
  private void endWithError(SessionKey session, String msgId, Throwable failure) {
    try {
      post(errorFrame(session, msgId, failure));
      post(Frames.presence(session, msgId, Payload.Presence.IDLE));
    } catch (IOException e) {
      ASKS.info("tether agent: cannot post the error for " + msgId + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static Frame errorFrame(SessionKey session, String msgId, Throwable failure) {
    Throwable cause = failure;
    while (!(cause instanceof TetherException) && cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    String code = cause instanceof TetherException t ? t.code().name() : "AGENT_FAILED";
    String message = cause instanceof TetherException ? cause.getMessage()
        : "the agent could not answer this message: " + rootMessage(failure);
    ObjectNode payload = Json.MAPPER.createObjectNode()
        .put("code", code).put("message", message);
    RawJson raw;
    try {
      raw = RawJson.ofUtf8(Json.MAPPER.writeValueAsBytes(payload));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return Frame.builder(FrameTypes.ERROR).ts(Instant.now()).session(session).msgId(msgId).payload(raw).build();
  }

  private void post(Frame frame) throws IOException, InterruptedException {
    try {
      client.send(instance, frame).get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(rootMessage(e), e);
    } catch (TimeoutException e) {
      throw new IOException("the host did not answer within 60 s", e);
    }
  }

  private void postUnchecked(Frame frame) {
    try {
      post(frame);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private Map<String, String> fields(SessionKey session, String msgId, String type) {
    return LogFields.of("instance", instance, "session", session.toString(), "msg_id", msgId, "type", type);
  }

  static String rootMessage(Throwable t) {
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  @Override
  public void close() {
    running = false;
    CompletableFuture<FramePage> poll = currentPoll;
    if (poll != null) {
      poll.cancel(false); // aborts the long-poll's HTTP request
    }
    pool.shutdown();
    try {
      if (!pool.awaitTermination(5, TimeUnit.SECONDS)) {
        LOG.log(System.Logger.Level.WARNING, "answers still running at shutdown");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
