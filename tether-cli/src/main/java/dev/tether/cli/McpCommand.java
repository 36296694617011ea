package dev.tether.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tether mcp}: the MCP stdio server over a remote host (not yet available; see the report). */
@Command(name = "mcp", mixinStandardHelpOptions = true,
    description = {"Run the MCP stdio server (tether_send, tether_read) against a tether host.",
        "NOT AVAILABLE YET: it needs the tether-mcp module, which is still being built."})
final class McpCommand implements Callable<Integer> {
  @Option(names = "--host", paramLabel = "ADDRESS", description = "The host: a socket path or http://127.0.0.1:PORT.")
  String host;

  @Override
  public Integer call() {
    System.err.println("tether mcp: not available in this build (the tether-mcp module is not merged yet)");
    return 3;
  }
}
