package dev.tether.coven;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.ToolPayload;
import dev.tether.api.testing.ImageBytes;
import dev.tether.images.Images;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A tether agent for tests, over a {@link MemoryTetherStore}: reads {@code user.message} and
 * {@code control.cancel} on channel {@code coven} and answers by script.
 *
 * <ul>
 *   <li>images: names each attachment from the payload's {@code attachments};
 *   <li>"chart": a 64x32 PNG in {@code assistant.done}, with usage;
 *   <li>"slow": a delta every 50 ms for 10 s, stopping on {@code control.cancel} with
 *       {@code "cancelled": true};
 *   <li>"tool": {@code event.tool_state} running then completed;
 *   <li>"fail": an {@code error} frame;
 *   <li>"ask approval": {@code event.tool_use} and {@code event.tool_approval_request} for tool
 *       {@code a1}, waits for its {@code control.tool_approval}, then (approved) a
 *       {@code event.tool_result}; the answer names the decision and reason;
 *   <li>"ask twice": approval requests {@code a1} then {@code a2}, each waited for;
 *   <li>"use pack": {@code event.session_init}, then {@code event.pack_tool_request} {@code p1}
 *       for {@code weather}, waits for its {@code control.pack_tool_result} and names it;
 *   <li>"orphan": {@code event.session_orphaned};
 *   <li>anything else: "You said: " and the text.
 * </ul>
 */
final class ScriptedAgent implements AutoCloseable {
  static final int CHART_WIDTH = 64;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final MemoryTetherStore store;
  private final String instance;
  private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
  /** The host's tool answers (control.tool_approval, control.pack_tool_result) by id, as they arrive. */
  final Map<String, CompletableFuture<ToolPayload>> toolAnswers = new ConcurrentHashMap<>();
  /** Every host tool answer frame, in order. */
  final List<Frame> toolAnswerFrames = new CopyOnWriteArrayList<>();
  private final ExecutorService answers = Executors.newCachedThreadPool();
  private final Thread reader;
  private volatile boolean running = true;

  ScriptedAgent(MemoryTetherStore store, String instance) {
    this.store = store;
    this.instance = instance;
    this.reader = new Thread(this::read, "scripted-agent");
    reader.setDaemon(true);
    reader.start();
  }

  private void read() {
    long cursor = 0;
    while (running) {
      QueryResult page;
      try {
        page = store.awaitFrames(instance, FrameQuery.builder().channel("coven").afterSeq(cursor)
            .types(FrameTypes.USER_MESSAGE, FrameTypes.CONTROL_CANCEL, FrameTypes.CONTROL_TOOL_APPROVAL,
                FrameTypes.CONTROL_PACK_TOOL_RESULT).limit(200).build(), Duration.ofMillis(200));
      } catch (InterruptedException | RuntimeException e) {
        return;
      }
      for (Frame f : page.frames()) {
        if (FrameTypes.CONTROL_CANCEL.equals(f.type())) {
          cancelled.add(f.msgId().orElse(""));
        } else if (ToolPayload.isToolType(f.type())) {
          toolAnswerFrames.add(f);
          ToolPayload p = ToolPayload.read(f);
          String id = p instanceof ToolPayload.ApprovalAnswer a ? a.id() : ((ToolPayload.PackToolResult) p).id();
          answerFor(id).complete(p);
        } else {
          answers.execute(() -> answer(f));
        }
      }
      cursor = Math.max(cursor, page.nextSeq());
    }
  }

  private void answer(Frame request) {
    SessionKey session = request.session().orElseThrow();
    String msgId = request.msgId().orElseThrow();
    Payload.UserMessage m = (Payload.UserMessage) request.payloadView();
    String text = m.text();
    post(Frames.presence(session, msgId, Payload.Presence.THINKING));
    if (!m.images().isEmpty()) {
      StringBuilder names = new StringBuilder("I received " + m.images().size() + " image(s):");
      for (JsonNode a : tree(m.extra().get("attachments"))) {
        names.append(' ').append(a.path("filename").asText()).append(" (").append(a.path("mime_type").asText()).append(')');
      }
      reply(session, msgId, names.toString(), List.of(), Map.of());
    } else if (text.contains("chart")) {
      post(Frames.assistantDelta(session, msgId, "Here is your chart."));
      reply(session, msgId, "Here is your chart.", List.of(Images.fromBytes(chartPng(), MediaType.PNG)),
          Map.of("usage", RawJson.of("{\"input_tokens\":12,\"output_tokens\":5}")));
    } else if (text.contains("slow")) {
      StringBuilder sofar = new StringBuilder();
      for (int i = 0; i < 200 && !cancelled.contains(msgId); i++) {
        String piece = "tick " + i + "\n";
        sofar.append(piece);
        post(Frames.assistantDelta(session, msgId, piece));
        sleep(50);
      }
      boolean wasCancelled = cancelled.contains(msgId);
      reply(session, msgId, sofar.toString(), List.of(), wasCancelled ? Map.of("cancelled", RawJson.of("true")) : Map.of());
    } else if (text.contains("ask approval") || text.contains("ask twice")) {
      StringBuilder said = new StringBuilder();
      for (String id : text.contains("ask twice") ? List.of("a1", "a2") : List.of("a1")) {
        RawJson input = RawJson.of("{\"values\":[1,2,3]}");
        post(ToolPayload.frame(session, msgId, new ToolPayload.ToolUse(id, "draw", input)));
        post(ToolPayload.frame(session, msgId, new ToolPayload.ApprovalRequest(id, "draw", input)));
        ToolPayload.ApprovalAnswer a = (ToolPayload.ApprovalAnswer) await(id);
        if (a.decision().approved()) {
          post(ToolPayload.frame(session, msgId, new ToolPayload.ToolResult(id, "drew 3 bars", false)));
        }
        said.append(id).append('=').append(a.decision().wireName()).append(a.reason().map(r -> " (" + r + ")").orElse("")).append(';');
      }
      reply(session, msgId, said.toString(), List.of(), Map.of());
    } else if (text.contains("use pack")) {
      post(ToolPayload.frame(session, msgId, new ToolPayload.SessionInit("backend-7")));
      post(ToolPayload.frame(session, msgId, new ToolPayload.PackToolRequest("p1", "weather", RawJson.of("{\"city\":\"Oslo\"}"))));
      ToolPayload.PackToolResult r = (ToolPayload.PackToolResult) await("p1");
      reply(session, msgId, r.output().map(o -> "pack: " + o).orElseGet(() -> "pack failed: " + r.error().orElseThrow()),
          List.of(), Map.of());
    } else if (text.contains("orphan")) {
      post(ToolPayload.frame(session, msgId, new ToolPayload.SessionOrphaned("the backend restarted")));
      reply(session, msgId, "orphaned", List.of(), Map.of());
    } else if (text.contains("tool")) {
      post(other(session, msgId, "event.tool_state", "{\"id\":\"t1\",\"state\":\"running\"}"));
      post(other(session, msgId, "event.tool_state", "{\"id\":\"t1\",\"state\":\"completed\",\"detail\":\"ok\"}"));
      reply(session, msgId, "tool finished", List.of(), Map.of());
    } else if (text.contains("fail")) {
      post(other(session, msgId, FrameTypes.ERROR, "{\"code\":\"AGENT_FAILED\",\"message\":\"scripted failure\"}"));
    } else {
      post(Frames.assistantDelta(session, msgId, "You said: "));
      reply(session, msgId, "You said: " + text, List.of(), Map.of());
    }
    post(Frames.presence(session, msgId, Payload.Presence.IDLE));
  }

  CompletableFuture<ToolPayload> answerFor(String id) {
    return toolAnswers.computeIfAbsent(id, k -> new CompletableFuture<>());
  }

  private ToolPayload await(String id) {
    try {
      return answerFor(id).get(20, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("no answer for " + id, e);
    } finally {
      toolAnswers.remove(id); // the next request may reuse the id
    }
  }

  static byte[] chartPng() {
    BufferedImage image = new BufferedImage(CHART_WIDTH, 32, BufferedImage.TYPE_INT_RGB);
    var g = image.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, CHART_WIDTH, 32);
    g.setColor(Color.BLUE);
    for (int i = 0; i < 4; i++) {
      g.fillRect(4 + i * 15, 32 - 6 * (i + 1), 10, 6 * (i + 1));
    }
    g.dispose();
    return ImageBytes.encode(image, "png");
  }

  private void reply(SessionKey session, String msgId, String text, List<Image> images, Map<String, RawJson> extra) {
    post(Frame.of(session, msgId, new Payload.AssistantDone(text, images, extra)));
  }

  private static Frame other(SessionKey session, String msgId, String type, String json) {
    return Frame.builder(type).version(1).session(session).msgId(msgId).payload(RawJson.of(json)).build();
  }

  private void post(Frame f) {
    store.append(instance, f);
  }

  private static List<JsonNode> tree(RawJson json) {
    List<JsonNode> out = new ArrayList<>();
    if (json != null) {
      try {
        JSON.readTree(json.toString()).forEach(out::add);
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }
    return out;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    reader.join(5000);
    answers.shutdownNow();
    answers.awaitTermination(5, TimeUnit.SECONDS);
  }
}
