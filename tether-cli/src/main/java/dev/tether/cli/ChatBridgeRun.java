package dev.tether.cli;

import dev.tether.chat.ChatSecret;
import dev.tether.client.http.HttpTetherClient;
import java.util.concurrent.CountDownLatch;

/**
 * The last part of every chat bridge command: print the banner, then block until SIGINT/SIGTERM,
 * when a shutdown hook closes the metrics endpoint, the bridge and the host client in that order
 * and prints {@code tether <command>: stopped}.
 */
final class ChatBridgeRun {
  private ChatBridgeRun() {}

  /** Runs until the JVM is asked to stop; returns the exit status 0. */
  static int untilStopped(String command, AutoCloseable bridge, HttpTetherClient client, MetricsEndpoint metrics, String... banner)
      throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (metrics != null) {
        metrics.close();
      }
      try {
        bridge.close();
      } catch (Exception e) {
        System.err.println("tether " + command + ": closing the bridge failed: " + e.getMessage());
      }
      client.close();
      System.err.println("tether " + command + ": stopped");
      stopped.countDown();
    }, "tether-" + command + "-shutdown"));
    for (String line : banner) {
      System.err.println("tether " + command + ": " + line);
    }
    stopped.await();
    return 0;
  }

  /** {@code message} with every given secret's value replaced (nulls skipped). */
  static String redact(String message, ChatSecret... secrets) {
    String m = String.valueOf(message);
    for (ChatSecret s : secrets) {
      if (s != null) {
        m = s.redact(m);
      }
    }
    return m;
  }
}
