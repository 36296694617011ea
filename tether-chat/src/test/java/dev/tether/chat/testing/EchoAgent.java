package dev.tether.chat.testing;

import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.api.testing.ImageBytes;
import dev.tether.images.Images;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import java.awt.image.BufferedImage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small agent on the store: answers every {@code user.message} of one channel with
 * "You said: ..." (and "N images" when it got some), and with a 64x48 PNG when the text says "chart".
 */
public final class EchoAgent implements AutoCloseable {
  private final MemoryTetherStore store;
  private final String instance;
  private final String channel;
  private final Thread thread;
  private volatile boolean stopped;

  public EchoAgent(MemoryTetherStore store, String instance, String channel) {
    this.store = store;
    this.instance = instance;
    this.channel = channel;
    this.thread = new Thread(this::run, "echo-agent");
    thread.setDaemon(true);
    thread.start();
  }

  public static byte[] png() {
    return ImageBytes.encode(new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB), "png");
  }

  private void run() {
    long cursor = 0;
    FrameQuery query = FrameQuery.builder().channel(channel).types(FrameTypes.USER_MESSAGE).build();
    while (!stopped) {
      try {
        QueryResult page = store.waitForFrames(instance, query.withAfterSeq(cursor), Duration.ofMillis(300)).get(10, TimeUnit.SECONDS);
        for (Frame f : page.frames()) {
          SessionKey session = f.session().orElseThrow();
          Payload.UserMessage m = (Payload.UserMessage) f.payloadView();
          String text = "You said: " + m.text() + (m.images().isEmpty() ? "" : " (" + m.images().size() + " images)");
          List<Image> images = m.text().contains("chart") ? List.of(Images.fromBytes(png(), MediaType.PNG)) : List.of();
          store.append(instance, Frame.of(session, f.msgId().orElseThrow(), Payload.AssistantDone.of(text, images)));
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

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
  }
}
