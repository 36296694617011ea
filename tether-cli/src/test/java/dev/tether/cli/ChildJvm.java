package dev.tether.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A {@code tether} command in its own JVM, with stderr captured to a file. */
final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final Path stderr;

  private ChildJvm(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
  }

  static ChildJvm start(Path logDir, String name, Map<String, String> env, String... args) throws IOException {
    return startWith(logDir, name, env, List.of("-Xmx256m"), args);
  }

  /** As {@link #start}, with {@code jvmArgs} (a heap size, say) instead of the default {@code -Xmx256m}. */
  static ChildJvm startWith(Path logDir, String name, Map<String, String> env, List<String> jvmArgs, String... args)
      throws IOException {
    return startMain(logDir, name, env, jvmArgs, Main.class, args);
  }

  /** As {@link #startWith}, running {@code main} (a test's own child program, say) instead of {@code tether}. */
  static ChildJvm startMain(Path logDir, String name, Map<String, String> env, List<String> jvmArgs, Class<?> main,
      String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    cmd.add("-Djava.awt.headless=true");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    Path err = logDir.resolve(name + ".err");
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectError(ProcessBuilder.Redirect.appendTo(err.toFile()))
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logDir.resolve(name + ".out").toFile()));
    pb.environment().remove("ANTHROPIC_API_KEY");
    pb.environment().remove("OPENAI_API_KEY");
    pb.environment().remove("OLLAMA_HOST");
    // Defaults that live under the home directory (socket, token, agent sessions) stay in the test's directory.
    pb.environment().remove("XDG_RUNTIME_DIR");
    pb.environment().put("HOME", logDir.toString());
    pb.environment().putAll(env);
    return new ChildJvm(pb.start(), err);
  }

  /** Waits until stderr has a line matching {@code regex}; returns the match. */
  Matcher awaitStderr(String regex, long timeoutMs) throws Exception {
    Pattern p = Pattern.compile(regex);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (System.nanoTime() < deadline) {
      // Whether it was alive BEFORE the read: a line written just before exiting is still seen.
      boolean alive = process.isAlive();
      if (Files.exists(stderr)) {
        for (String line : Files.readAllLines(stderr, StandardCharsets.UTF_8)) {
          Matcher m = p.matcher(line);
          if (m.find()) {
            return m;
          }
        }
      }
      if (!alive) {
        throw new IllegalStateException("exited with " + process.exitValue() + ": " + stderrText());
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException("no line matching " + regex + " within " + timeoutMs + " ms: " + stderrText());
  }

  String stderrText() throws IOException {
    return Files.exists(stderr) ? Files.readString(stderr) : "";
  }

  long pid() {
    return process.pid();
  }

  /** Waits for a command that ends by itself; its exit code (killed and failed when it outlives {@code timeoutMs}). */
  int awaitExit(long timeoutMs) throws InterruptedException, IOException {
    if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("still running after " + timeoutMs + " ms: " + stderrText());
    }
    return process.exitValue();
  }

  /** SIGTERM, then waits for the exit code. */
  int terminate() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor();
    }
    return process.exitValue();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      try {
        terminate();
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
