package dev.tether.mcp;

import dev.tether.store.MemoryTetherStore;
import java.util.Set;

/**
 * Test-only MCP server process: the real stdio server over an in-process store with one known
 * instance, {@value #INSTANCE}, answered by a {@link ScriptedResponder}. Tests and the Node
 * end-to-end script start it as a child JVM with the test classpath.
 *
 * <p>With {@code --stray-stdout} it prints a line to {@code System.out} whenever a message
 * arrives (so, while serving), to show that such output goes to stderr and never into the
 * JSON-RPC stream.
 */
public final class TestServerMain {
  static final String INSTANCE = "agent1";
  static final String STRAY_LINE = "stray println from some library";

  private TestServerMain() {}

  public static void main(String[] args) throws Exception {
    boolean stray = Set.of(args).contains("--stray-stdout");
    try (MemoryTetherStore store = MemoryTetherStore.create();
        ScriptedResponder responder = new ScriptedResponder(store, INSTANCE,
            stray ? () -> System.out.println(STRAY_LINE) : () -> {})) {
      TetherMcpServer server = TetherMcpServer.builder(new StoreTetherClient(store, Set.of(INSTANCE)::contains))
          .version("test")
          .build();
      StdioServer.run(server);
    }
    System.exit(0);
  }
}
