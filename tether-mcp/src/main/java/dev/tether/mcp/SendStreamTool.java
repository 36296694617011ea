package dev.tether.mcp;

import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.client.FramePage;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * {@code tether_send_stream}: sends like {@code tether_send}, then follows the answer to that
 * message: each {@code status.presence}, {@code assistant.delta} and {@code reasoning.delta} is
 * reported as an MCP progress notification ({@link ProgressStream}: in order, coalesced at the
 * client's pace), and the {@code assistant.done} (or an {@code error} frame answering the message)
 * is the tool result, shown as {@code tether_read} shows frames, images as image items, plus
 * {@code msg_id}. Past {@code wait_ms} the result is {@code tether_read}'s timed-out answer with
 * the cursor to continue from.
 *
 * <p>Design. The answer is read with {@link EgressReadLoop} rounds of at most 30 s each, filtered to
 * the reply's {@code msg_id} and the five types, each round started from the completion of the
 * previous one: no thread is held while the agent works. Cancelling the call (the SDK cancels the
 * future when the client cancels or goes away) cancels the round in flight and sends nothing more;
 * the message stays sent. The result is completed after the notifications offered before it were
 * sent (bounded: 5 s), so a client sees them first. Thread-safe: each call has its own state.
 */
final class SendStreamTool {
  static final String NAME = "tether_send_stream";
  static final long DEFAULT_WAIT_MS = 120_000;
  static final long MAX_WAIT_MS = 600_000;
  private static final List<String> TYPES = List.of(FrameTypes.STATUS_PRESENCE, FrameTypes.ASSISTANT_DELTA,
      FrameTypes.REASONING_DELTA, FrameTypes.ASSISTANT_DONE, FrameTypes.ERROR);
  private static final Set<String> ARGS;

  static {
    Set<String> args = new HashSet<>(SendTool.arguments());
    args.add("wait_ms");
    ARGS = Set.copyOf(args);
  }

  private final TetherClient client;
  private final SendTool send;
  private final LongSupplier nanoTime;

  SendStreamTool(TetherClient client, SendTool send) {
    this(client, send, System::nanoTime);
  }

  SendStreamTool(TetherClient client, SendTool send, LongSupplier nanoTime) {
    this.client = client;
    this.send = send;
    this.nanoTime = nanoTime;
  }

  /**
   * @param exchange the call's exchange, for progress notifications (null: none)
   * @param progressToken the call's {@code _meta.progressToken}, or null
   */
  CompletableFuture<CallToolResult> call(McpAsyncServerExchange exchange, Object progressToken, Map<String, Object> arguments) {
    Args args = Args.of(NAME, arguments, ARGS);
    long waitMs = args.optLong("wait_ms", 0, MAX_WAIT_MS).orElse(DEFAULT_WAIT_MS);
    String instance = args.requireNonBlank("instance");
    String session = args.optString("session_id").orElse(SessionKey.DEFAULT_ID);
    long deadline = nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(waitMs);
    CompletableFuture<SendReceipt> sent = send.send(args);
    Follow follow = new Follow(instance, session, deadline, new ProgressStream(exchange, progressToken));
    follow.pending.set(sent);
    follow.answer.whenComplete((r, t) -> {
      CompletableFuture<?> inFlight = follow.pending.get();
      if (follow.answer.isCancelled() && inFlight != null) {
        inFlight.cancel(false);
      }
    });
    sent.whenComplete((receipt, failure) -> {
      if (failure != null) {
        follow.answer.completeExceptionally(unwrap(failure));
      } else {
        follow.round(receipt.msgId(), receipt.ingressSeq());
      }
    });
    return follow.answer;
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  /** One call's following of its answer. */
  private final class Follow {
    final String instance;
    final String session;
    final long deadline;
    final ProgressStream progress;
    final CompletableFuture<CallToolResult> answer = new CompletableFuture<>();
    final AtomicReference<CompletableFuture<?>> pending = new AtomicReference<>();

    Follow(String instance, String session, long deadline, ProgressStream progress) {
      this.instance = instance;
      this.session = session;
      this.deadline = deadline;
      this.progress = progress;
    }

    /** Reads the next page of the answer from {@code cursor}, or finishes timed out at the deadline. */
    void round(String msgId, long cursor) {
      if (answer.isDone()) {
        return;
      }
      long leftNanos = deadline - nanoTime.getAsLong();
      if (leftNanos <= 0) {
        finish(msgId, new FramePage(List.of(), cursor, true, false, 0));
        return;
      }
      long waitMs = Math.min(ReadRequest.MAX_WAIT_MS, TimeUnit.NANOSECONDS.toMillis(leftNanos + 999_999));
      ReadRequest request = new ReadRequest(session, cursor, ReadRequest.MAX_LIMIT, waitMs, TYPES, Optional.of(msgId));
      CompletableFuture<FramePage> page = EgressReadLoop.read(client, instance, request, nanoTime);
      pending.set(page);
      if (answer.isDone()) {
        page.cancel(false);
        return;
      }
      page.whenComplete((result, failure) -> {
        if (failure != null) {
          Throwable cause = unwrap(failure);
          if (!(cause instanceof CancellationException)) {
            answer.completeExceptionally(cause);
          }
          return;
        }
        for (Frame frame : result.frames()) {
          String type = frame.type();
          if (FrameTypes.ASSISTANT_DONE.equals(type) || FrameTypes.ERROR.equals(type)) {
            finish(msgId, new FramePage(List.of(frame), frame.seq(), false, result.gap(), result.oldestSeq()));
            return;
          }
          report(progress, frame);
        }
        round(msgId, result.nextSeq());
      });
    }

    /** Completes the answer with {@code page} (and {@code msg_id}) after the notifications offered so far. */
    void finish(String msgId, FramePage page) {
      CallToolResult shown = ReadTool.toResult(page);
      List<Content> content = new ArrayList<>(shown.content());
      Map<String, Object> withId = new LinkedHashMap<>();
      withId.put("msg_id", msgId);
      withId.putAll(McpJson.readObject(((TextContent) content.get(0)).text()));
      content.set(0, TextContent.builder(McpJson.write(withId)).build());
      CallToolResult result = CallToolResult.builder().content(content).isError(false).build();
      progress.drained().completeOnTimeout(null, 5, TimeUnit.SECONDS).whenComplete((v, t) -> answer.complete(result));
    }
  }

  private static void report(ProgressStream progress, Frame frame) {
    Payload payload = frame.payloadView();
    if (payload instanceof Payload.Presence presence) {
      progress.presence(presence.state());
    } else if (payload instanceof Payload.AssistantDelta delta) {
      progress.delta(frame.type(), delta.text());
    } else if (FrameTypes.REASONING_DELTA.equals(frame.type())) {
      progress.delta(frame.type(), textOf(frame));
    }
  }

  /** The {@code text} field of a frame's payload, or "" (a reasoning delta has no typed view). */
  private static String textOf(Frame frame) {
    try {
      return McpJson.MAPPER.readTree(frame.payload().toByteArray()).path("text").asText("");
    } catch (IOException e) {
      return "";
    }
  }
}
