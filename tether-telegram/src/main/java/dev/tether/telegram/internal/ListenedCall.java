package dev.tether.telegram.internal;

import dev.tether.telegram.TelegramListener;
import java.io.IOException;

/** Runs one Bot API call and tells a {@link TelegramListener} how it ended (see its methods). */
final class ListenedCall {
  /** One Bot API call. */
  @FunctionalInterface
  interface Call<T> {
    T run() throws IOException;
  }

  private ListenedCall() {}

  static <T> T of(TelegramListener listener, String method, Call<T> call) throws IOException {
    if (listener == TelegramListener.NONE) {
      return call.run();
    }
    T result;
    try {
      result = call.run();
    } catch (BotApiException e) {
      if (e.retryAfter().isPresent()) {
        listener.rateLimited(method, e.retryAfter().getAsInt());
      }
      listener.answered(method, false);
      throw e;
    } catch (IOException | RuntimeException e) {
      listener.answered(method, false);
      throw e;
    }
    listener.answered(method, true);
    if (method.startsWith("send") && !method.equals("sendChatAction") || method.startsWith("edit")) {
      listener.sent(method);
    }
    return result;
  }
}
