package dev.tether.server;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * An {@link InstanceWaker} that runs a command ({@code tether serve --wake-command}): the instance
 * id travels in the environment variable {@value #INSTANCE_VARIABLE}, never in the command line,
 * so nothing a client sent is ever parsed by a shell. The command's standard output is discarded
 * and its standard error goes to this process's. A command still running after the timeout is
 * killed with its descendants. Each run is logged once: INFO when it exits 0 (with its time),
 * WARNING when it exits otherwise, times out or cannot start. Thread-safe; immutable.
 */
public final class CommandWaker implements InstanceWaker {
  /** The environment variable holding the instance id. */
  public static final String INSTANCE_VARIABLE = "TETHER_INSTANCE";
  private static final System.Logger LOG = System.getLogger(CommandWaker.class.getName());

  private final List<String> command;
  private final Duration timeout;

  private CommandWaker(List<String> command, Duration timeout) {
    this.command = command;
    this.timeout = timeout;
  }

  /**
   * Runs {@code command} (program and arguments, used as given: no shell unless the program is one)
   * for each wake, killing it after {@code timeout}.
   *
   * @throws IllegalArgumentException when the command is empty or the timeout not positive
   */
  public static CommandWaker of(List<String> command, Duration timeout) {
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(timeout, "timeout");
    if (command.isEmpty() || command.get(0).isBlank()) {
      throw new IllegalArgumentException("command must name a program but was " + command);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be > 0 but was " + timeout);
    }
    return new CommandWaker(List.copyOf(command), timeout);
  }

  /** {@code /bin/sh -c script}: the operator's own script, with {@code "$TETHER_INSTANCE"} in it. */
  public static CommandWaker shell(String script, Duration timeout) {
    Objects.requireNonNull(script, "script");
    return of(List.of("/bin/sh", "-c", script), timeout);
  }

  /** How long a run may take before it is killed. */
  public Duration timeout() {
    return timeout;
  }

  @Override
  public void wake(String instance) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().put(INSTANCE_VARIABLE, instance);
    long start = System.nanoTime();
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "wake command for instance " + instance + " could not start: " + e.getMessage());
      throw e;
    }
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        kill(p);
        LOG.log(System.Logger.Level.WARNING, "wake command for instance " + instance + " still ran after "
            + timeout.toMillis() + " ms (its timeout): killed");
        return;
      }
    } catch (InterruptedException e) {
      kill(p); // the server is closing
      throw e;
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    int exit = p.exitValue();
    LOG.log(exit == 0 ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
        "wake command for instance " + instance + " exited " + exit + " in " + ms + " ms");
  }

  private static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
    try {
      p.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "CommandWaker" + command + " timeout " + timeout;
  }
}
