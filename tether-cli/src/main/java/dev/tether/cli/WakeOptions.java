package dev.tether.cli;

import dev.tether.server.CommandWaker;
import dev.tether.server.TetherServer;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code tether serve --wake-command CMD}: wake-on-message through a {@link CommandWaker} set on
 * {@link TetherServer.Builder#waker}.
 */
final class WakeOptions {
  @Option(names = "--wake-command", paramLabel = "CMD",
      description = "Run CMD (with /bin/sh -c) when a user.* or control.* frame arrives for an instance nobody has read"
          + " for --wake-idle: the instance id is in the environment as TETHER_INSTANCE (never in the command line)."
          + " Once per idle instance, never while a poll or stream is open; exit status and time logged.")
  String command;

  @Option(names = "--wake-idle", paramLabel = "SECONDS",
      description = "How long an instance must have had no reader before a frame wakes it. Default: 10.")
  Long idleSeconds;

  @Option(names = "--wake-timeout", paramLabel = "SECONDS",
      description = "A wake command still running after this is killed (with its children). Default: 60.")
  Long timeoutSeconds;

  /**
   * Sets the waker on {@code builder} when {@code --wake-command} was given.
   *
   * @throws UsageException when a flag is out of range, or given without --wake-command
   */
  void apply(TetherServer.Builder builder) {
    if (command == null) {
      if (idleSeconds != null || timeoutSeconds != null) {
        throw new UsageException("--wake-idle and --wake-timeout need --wake-command");
      }
      return;
    }
    if (command.isBlank()) {
      throw new UsageException("--wake-command must name a command");
    }
    if (idleSeconds != null && idleSeconds < 1) {
      throw new UsageException("--wake-idle must be at least 1 but was " + idleSeconds);
    }
    if (timeoutSeconds != null && timeoutSeconds < 1) {
      throw new UsageException("--wake-timeout must be at least 1 but was " + timeoutSeconds);
    }
    builder.waker(CommandWaker.shell(command, Duration.ofSeconds(timeoutSeconds == null ? 60 : timeoutSeconds)));
    if (idleSeconds != null) {
      builder.wakeIdle(Duration.ofSeconds(idleSeconds));
    }
  }
}
