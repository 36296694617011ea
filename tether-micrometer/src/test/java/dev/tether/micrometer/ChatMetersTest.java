package dev.tether.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tether.chat.ChannelException;
import dev.tether.chat.ChatLog;
import dev.tether.chat.ChatRetrier;
import dev.tether.chat.ChatStopper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** {@link ChatMeters} fed by the chat core's {@link ChatRetrier}, as the Slack and WhatsApp bridges feed it. */
class ChatMetersTest {
  @Test
  void retrierOutcomes_areCountedPerMethod_underTheChannelsPrefix() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ChatMeters meters = TetherMeters.of(registry).chatListener("slack");
    ChatRetrier retrier = new ChatRetrier(Duration.ofMillis(1), Duration.ofMillis(2),
        new ChatLog("test.chat-meters", UnaryOperator.identity()), new ChatStopper(), meters);
    AtomicInteger tries = new AtomicInteger();
    retrier.call("chat.postMessage", () -> {
      if (tries.incrementAndGet() == 1) {
        throw new ChannelException("chat.postMessage", 429, "ratelimited", 1);
      }
      return "ok";
    });
    assertThrows(ChannelException.class, () -> retrier.call("chat.update", () -> {
      throw new ChannelException("chat.update", 400, "cant_update_message", -1);
    }));
    meters.received(3);
    meters.forwarded();

    assertEquals(1, registry.get("tether.slack.calls.answered").tag("method", "chat.postMessage").counter().count());
    assertEquals(1, registry.get("tether.slack.ratelimited").tag("method", "chat.postMessage").counter().count());
    assertEquals(1, registry.get("tether.slack.errors").tag("method", "chat.update").counter().count());
    assertEquals(3, registry.get("tether.slack.updates").counter().count());
    assertEquals(1, registry.get("tether.slack.forwarded").counter().count());
  }

  @Test
  void aChannelNameThatIsNotAMeterWord_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> TetherMeters.of(new SimpleMeterRegistry()).chatListener("Slack chat"));
  }
}
