package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tether serve} with no flags runs what {@link TetherServer#builder()} with no settings
 * builds: both describe the same memory budget and the same limits. Each runs in its own JVM with
 * the same heap, since every default follows the heap.
 */
class ServeDefaultsTest {
  private static final List<String> HEAP = List.of("-Xmx256m");

  @TempDir Path dir;

  @Test
  void serveWithNoFlags_describesTheSameLimitsAsTheBuilderWithNone() throws Exception {
    String serveMemory;
    String serveLimits;
    // --socket only moves the listener into the test's directory; it sets no limit.
    try (ChildJvm serve = ChildJvm.startWith(dir, "serve", Map.of(), HEAP, "serve", "--socket", dir.resolve("s.sock").toString())) {
      serve.awaitStderr("listening on", 60_000);
      serveMemory = serve.awaitStderr("tether serve: (memory: .*)", 1000).group(1);
      serveLimits = serve.awaitStderr("tether serve: (limits: .*)", 1000).group(1);
    }
    // user.home: the builder's default workspaces root stays in the test's directory too (serve's follows HOME).
    List<String> jvm = List.of(HEAP.get(0), "-Duser.home=" + dir);
    try (ChildJvm builder = ChildJvm.startMain(dir, "builder", Map.of(), jvm, BuilderDefaults.class,
        dir.resolve("b.sock").toString())) {
      assertEquals(serveMemory, builder.awaitStderr("builder: (memory: .*)", 60_000).group(1));
      assertEquals(serveLimits, builder.awaitStderr("builder: (limits: .*)", 1000).group(1));
    }
  }

  /** A child program: starts {@code TetherServer.builder()} with no settings but its socket, prints what serve prints. */
  static final class BuilderDefaults {
    public static void main(String[] args) throws Exception {
      long heap = Runtime.getRuntime().maxMemory();
      try (TetherServer server = TetherServer.builder().listen(new HostAddress.Unix(Path.of(args[0]))).start()) {
        System.err.println("builder: " + server.memoryBudget().describe(heap));
        System.err.println("builder: " + server.describeLimits());
      }
    }
  }
}
