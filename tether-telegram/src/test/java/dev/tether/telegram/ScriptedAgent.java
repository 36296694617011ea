package dev.tether.telegram;

import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Image;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.images.ImageHeaders;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A small agent for tests, on the store directly: answers every {@code user.message} of channel
 * {@code telegram} with presence {@code thinking}, two deltas, {@code assistant.done} and presence
 * {@code idle}, all carrying the request's msg_id. The answer describes each received image
 * (type, bytes, pixel size); a request containing "chart" gets a 400x300 PNG (with a text over
 * 1024 characters when it also says "explain"), "panorama" a
 * 2100x100 PNG (too narrow for sendPhoto), "long" a 9000-character text. Records what it received.
 */
final class ScriptedAgent implements AutoCloseable {
  static final String CHART_TEXT = "Here is your chart.";

  private final MemoryTetherStore store;
  private final String instance;
  private final List<Frame> received = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile boolean stopped;

  ScriptedAgent(MemoryTetherStore store, String instance) {
    this.store = store;
    this.instance = instance;
    this.thread = new Thread(this::run, "scripted-agent");
    thread.setDaemon(true);
    thread.start();
  }

  List<Frame> received() {
    return List.copyOf(received);
  }

  List<Payload.UserMessage> messages() {
    return received.stream().map(f -> (Payload.UserMessage) f.payloadView()).toList();
  }

  private void run() {
    long cursor = 0;
    FrameQuery query = FrameQuery.builder().channel("telegram").types(FrameTypes.USER_MESSAGE).build();
    while (!stopped) {
      try {
        QueryResult page = store.waitForFrames(instance, query.withAfterSeq(cursor), Duration.ofMillis(500))
            .get(10, TimeUnit.SECONDS);
        for (Frame f : page.frames()) {
          received.add(f);
          answer(f);
        }
        cursor = page.nextSeq();
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        if (!stopped) {
          e.printStackTrace();
        }
      }
    }
  }

  private void answer(Frame request) {
    SessionKey session = request.session().orElseThrow();
    String msgId = request.msgId().orElseThrow();
    Payload.UserMessage m = (Payload.UserMessage) request.payloadView();
    store.append(instance, Frame.of(session, msgId, Payload.Presence.of(Payload.Presence.THINKING)));
    String text;
    List<Image> images = new ArrayList<>();
    if (m.text().contains("chart")) {
      text = m.text().contains("explain") ? CHART_TEXT + "\n" + "The bars grow from left to right. ".repeat(40) : CHART_TEXT;
      images.add(TestImages.pngImage(400, 300));
    } else if (m.text().contains("panorama")) {
      text = "A panorama.";
      images.add(TestImages.pngImage(2100, 100));
    } else if (m.text().contains("long")) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; sb.length() < 9000; i++) {
        sb.append("Line ").append(i).append(" of a long answer, with some words to wrap.\n");
      }
      text = sb.toString();
    } else {
      StringBuilder sb = new StringBuilder("You said: ").append(m.text());
      for (int i = 0; i < m.images().size(); i++) {
        Image img = m.images().get(i);
        byte[] bytes = Base64.getDecoder().decode(img.data());
        ImageHeaders.Dimensions d = ImageHeaders.dimensions(bytes);
        sb.append(String.format(Locale.ROOT, "%nimage %d: %s, %d bytes, %dx%d", i + 1, img.mediaType().mimeType(),
            bytes.length, d.width(), d.height()));
      }
      text = sb.toString();
    }
    int half = text.length() / 2;
    store.append(instance, Frame.of(session, msgId, Payload.AssistantDelta.of(text.substring(0, half))));
    store.append(instance, Frame.of(session, msgId, Payload.AssistantDelta.of(text.substring(half))));
    store.append(instance, Frame.of(session, msgId, Payload.AssistantDone.of(text, images)));
    store.append(instance, Frame.of(session, msgId, Payload.Presence.of(Payload.Presence.IDLE)));
  }

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
