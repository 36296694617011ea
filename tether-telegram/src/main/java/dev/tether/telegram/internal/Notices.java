package dev.tether.telegram.internal;

import dev.tether.telegram.TelegramChat;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Objects;

/**
 * Short messages from the bridge itself to a chat (why a file was not forwarded, what an album
 * rule left out). A notice that cannot be delivered is logged and dropped: it never stops a loop.
 * Thread-safe.
 */
final class Notices {
  private final BotApi api;
  private final Retrier retrier;
  private final BridgeLog log;

  Notices(BotApi api, Retrier retrier, BridgeLog log) {
    this.api = Objects.requireNonNull(api, "api");
    this.retrier = Objects.requireNonNull(retrier, "retrier");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** Sends {@code text} to {@code chat}; only a stop of the bridge is thrown. */
  void send(TelegramChat chat, String text) throws InterruptedIOException {
    try {
      retrier.call("sendMessage", () -> api.sendMessage(chat, text));
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      log.warn("could not tell " + chat + " '" + text + "': " + e.getMessage());
    }
  }
}
