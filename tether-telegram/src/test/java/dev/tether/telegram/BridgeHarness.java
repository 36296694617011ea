package dev.tether.telegram;

import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import dev.tether.telegram.testing.RecordingBotApi;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * One test's world: the local Bot API ({@link RecordingBotApi}), an in-process host over a memory
 * store, the {@link ScriptedAgent} and a bridge between them with short waits.
 */
final class BridgeHarness implements AutoCloseable {
  static final String INSTANCE = "vm-telegram";
  static final long CHAT = 4242L;
  static final long GROUP = -1001234567890L;
  static final Duration WAIT = Duration.ofSeconds(30);

  final RecordingBotApi api;
  final MemoryTetherStore store = MemoryTetherStore.create();
  final UnreachableSendsClient client = new UnreachableSendsClient(StoreTetherClient.of(store));
  final Path stateDir;
  private ScriptedAgent agent;
  private TelegramBridge bridge;

  BridgeHarness(Path dir) throws IOException {
    this.api = new RecordingBotApi();
    this.stateDir = dir.resolve("state");
  }

  BridgeHarness withAgent() {
    agent = new ScriptedAgent(store, INSTANCE);
    return this;
  }

  ScriptedAgent agent() {
    return agent;
  }

  TelegramBridge.Builder builder() {
    return TelegramBridge.builder()
        .client(client)
        .instance(INSTANCE)
        .token(BotToken.of(RecordingBotApi.TOKEN))
        .apiUrl(api.url())
        .allowedChats(Set.of(CHAT, GROUP))
        .stateDir(stateDir)
        .pollWait(Duration.ofSeconds(1))
        .albumWindow(Duration.ofMillis(400))
        .typingInterval(Duration.ofSeconds(1))
        .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200));
  }

  TelegramBridge start() throws IOException {
    return start(UnaryOperator.identity());
  }

  TelegramBridge start(UnaryOperator<TelegramBridge.Builder> settings) throws IOException {
    stopBridge();
    bridge = settings.apply(builder()).build();
    bridge.start();
    return bridge;
  }

  void stopBridge() {
    if (bridge != null) {
      bridge.close();
      bridge = null;
    }
  }

  /** The user.message frames the host holds. */
  List<Frame> forwarded() {
    return store.retained(INSTANCE).stream().filter(f -> f.type().equals(FrameTypes.USER_MESSAGE)).toList();
  }

  @Override
  public void close() {
    stopBridge();
    if (agent != null) {
      agent.close();
    }
    api.close();
    store.close();
  }
}
