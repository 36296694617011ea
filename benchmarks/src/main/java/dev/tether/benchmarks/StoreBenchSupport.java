package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;

/** Frames for the tether-store benchmarks. */
final class StoreBenchSupport {
  private StoreBenchSupport() {}

  /** An {@code assistant.done} frame whose payload is exactly {@code payloadBytes} bytes. */
  static Frame frame(SessionKey session, int payloadBytes) {
    String pad = "x".repeat(payloadBytes - "{\"text\":\"\"}".length());
    return Frame.builder("assistant.done").version(1).session(session).msgId("host-1")
        .payload(RawJson.of("{\"text\":\"" + pad + "\"}")).build();
  }
}
