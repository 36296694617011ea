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
import java.util.concurrent.ConcurrentHashMap;
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
 *   <li>anything else: "You said: " and the text.
 * </ul>
 */
final class ScriptedAgent implements AutoCloseable {
  static final int CHART_WIDTH = 64;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final MemoryTetherStore store;
  private final String instance;
  private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
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
            .types(FrameTypes.USER_MESSAGE, FrameTypes.CONTROL_CANCEL).limit(200).build(), Duration.ofMillis(200));
      } catch (InterruptedException | RuntimeException e) {
        return;
      }
      for (Frame f : page.frames()) {
        if (FrameTypes.CONTROL_CANCEL.equals(f.type())) {
          cancelled.add(f.msgId().orElse(""));
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
