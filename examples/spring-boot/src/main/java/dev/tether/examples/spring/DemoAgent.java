package dev.tether.examples.spring;

import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.Payload;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.images.ImageHeaders;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The agent behind tether, for the example: it long-polls instance {@code default} for user
 * messages and answers each with what it sees (the size and type of every image, read from its
 * header). A real agent runs in a VM and reaches the same instance over {@code tether.server.*};
 * turn this one off with {@code example.agent.enabled=false}.
 */
@Component
@ConditionalOnProperty(name = "example.agent.enabled", havingValue = "true", matchIfMissing = true)
public class DemoAgent implements SmartLifecycle {
  private final TetherClient tether;
  private volatile boolean running;
  private volatile CompletableFuture<FramePage> waiting;
  private Thread thread;

  public DemoAgent(TetherClient tether) {
    this.tether = tether;
  }

  @Override
  public void start() {
    running = true;
    thread = new Thread(this::loop, "demo-agent");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    long after = 0;
    while (running) {
      try {
        waiting = tether.poll("default", new PollRequest("host", null, after, 50, 10_000, Set.of("user.message"), null));
        FramePage page = waiting.get(15, TimeUnit.SECONDS);
        for (Frame f : page.frames()) {
          answer(f);
        }
        after = page.nextSeq();
      } catch (Exception e) {
        if (running) {
          System.getLogger("demo-agent").log(System.Logger.Level.WARNING, "poll failed: " + e);
        }
      }
    }
  }

  private void answer(Frame ask) throws Exception {
    Payload.UserMessage m = (Payload.UserMessage) ask.payloadView();
    StringBuilder text = new StringBuilder("You asked: " + m.text() + "\n");
    for (Image image : m.images()) {
      byte[] bytes = Base64.getDecoder().decode(image.data());
      ImageHeaders.Dimensions d = ImageHeaders.dimensions(bytes);
      text.append("I see a ").append(d.width()).append('x').append(d.height()).append(' ')
          .append(image.mediaType().mimeType()).append(" image.\n");
    }
    Frame reply = Frames.assistantDone(ask.session().orElseThrow(), ask.msgId().orElseThrow(), text.toString(), List.of());
    tether.send("default", reply).get(10, TimeUnit.SECONDS);
  }

  @Override
  public void stop() {
    running = false;
    CompletableFuture<FramePage> w = waiting;
    if (w != null) {
      w.cancel(true);
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
