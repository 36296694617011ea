package dev.tether.mcp;

import dev.tether.api.Limits;
import dev.tether.images.FrameValidator;
import dev.tether.media.MediaFetcher;
import dev.tether.media.MediaRegistry;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Test-only MCP server process: the real stdio server over an in-process store with one known
 * instance, {@value #INSTANCE}, answered by a {@link ScriptedResponder}, plus the media and
 * attachment tools over {@link TestMedia} in a temporary directory. Tests and the Node
 * end-to-end script start it as a child JVM with the test classpath.
 *
 * <p>With {@code --stray-stdout} it prints a line to {@code System.out} whenever a message
 * arrives (so, while serving), to show that such output goes to stderr and never into the
 * JSON-RPC stream. With {@code --max-frame-bytes=N} its frame limit (and so its stdin line limit)
 * is {@code N} bytes.
 */
public final class TestServerMain {
  static final String INSTANCE = "agent1";
  static final String STRAY_LINE = "stray println from some library";

  private TestServerMain() {}

  public static void main(String[] args) throws Exception {
    boolean stray = Set.of(args).contains("--stray-stdout");
    Limits.Builder limits = Limits.builder();
    for (String arg : args) {
      if (arg.startsWith("--max-frame-bytes=")) {
        limits.maxFrameBytes(Integer.parseInt(arg.substring("--max-frame-bytes=".length())));
      }
    }
    Path temp = Files.createTempDirectory("tether-mcp-test");
    // MCP clients usually end a stdio server with SIGTERM, which skips finally blocks.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(temp)));
    MemoryTetherStore store = MemoryTetherStore.create();
    ScriptedResponder responder =
        new ScriptedResponder(store, INSTANCE, stray ? () -> System.out.println(STRAY_LINE) : () -> {});
    MediaRegistry registry = TestMedia.registry();
    MediaFetcher fetcher = TestMedia.fetcher(registry, temp.resolve("media"));
    try {
      TetherMcpServer server = TetherMcpServer.builder(
          StoreTetherClient.builder(store).knownInstances(Set.of(INSTANCE)::contains).build())
          .version("test")
          .validator(FrameValidator.withLimits(limits.build()))
          .media(registry, fetcher)
          .attachments(TestMedia.attachments(temp.resolve("attachments")))
          .build();
      StdioServer.run(server);
    } finally {
      fetcher.close();
      responder.close();
      store.close();
    }
    System.exit(0);
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("could not delete " + root + ": " + e);
    }
  }
}
