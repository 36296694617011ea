package dev.tether.mcp;

import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.FrameTypes;
import dev.tether.api.Image;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.store.Subscription;
import dev.tether.store.SubscriptionEvent;
import dev.tether.store.TetherStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A stand-in agent for tests: it answers every {@code user.message} of one instance with a
 * {@code status.presence} (then, for a text starting with {@value #STREAM_PREFIX}, one
 * {@code assistant.delta} per word) and two {@code assistant.done} frames, all carrying the message's
 * {@code msg_id}. The first answer echoes the message's images in order, the second in reverse
 * order, so a reader can check which image belongs to which frame. Runs on one daemon thread.
 */
final class ScriptedResponder implements AutoCloseable {
  static final String FIRST_PREFIX = "first answer to: ";
  static final String SECOND_PREFIX = "second answer to: ";
  /** A message starting with this is answered with one assistant.delta per word after it, before the answers. */
  static final String STREAM_PREFIX = "stream: ";

  private final TetherStore store;
  private final String instance;
  private final Subscription subscription;
  private final Thread thread;
  private volatile boolean closed;

  private final Runnable onMessage;

  ScriptedResponder(TetherStore store, String instance) {
    this(store, instance, () -> {});
  }

  ScriptedResponder(TetherStore store, String instance, Runnable onMessage) {
    this.store = store;
    this.onMessage = onMessage;
    this.instance = instance;
    this.subscription = store.subscribe(instance, 1024);
    this.thread = new Thread(this::loop, "scripted-responder-" + instance);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private void loop() {
    try {
      while (!closed) {
        SubscriptionEvent event = subscription.next(Duration.ofSeconds(1)).orElse(null);
        if (event instanceof SubscriptionEvent.Delivered delivered
            && FrameTypes.USER_MESSAGE.equals(delivered.frame().type())) {
          answer(delivered.frame());
        } else if (event instanceof SubscriptionEvent.Closed) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void answer(Frame message) {
    onMessage.run();
    SessionKey session = message.session().orElseThrow();
    String msgId = message.msgId().orElseThrow();
    Payload.UserMessage user = (Payload.UserMessage) message.payloadView();
    List<Image> reversed = new ArrayList<>(user.images());
    Collections.reverse(reversed);
    store.append(instance, Frames.presence(session, msgId, Payload.Presence.THINKING));
    if (user.text().startsWith(STREAM_PREFIX)) {
      for (String word : user.text().substring(STREAM_PREFIX.length()).split(" ")) {
        store.append(instance, Frames.assistantDelta(session, msgId, word + " "));
      }
    }
    store.append(instance, Frames.assistantDone(session, msgId, FIRST_PREFIX + user.text(), user.images()));
    store.append(instance, Frames.assistantDone(session, msgId, SECOND_PREFIX + user.text(), reversed));
  }

  @Override
  public void close() {
    closed = true;
    subscription.close();
  }
}
