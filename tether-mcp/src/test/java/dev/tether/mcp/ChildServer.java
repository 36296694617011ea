package dev.tether.mcp;

import dev.tether.api.Limits;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * {@link TestServerMain} in a child JVM on the test classpath, driven by the MCP SDK's own
 * client over the child's stdin and stdout. Stderr lines are collected for diagnostics.
 */
final class ChildServer implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  final McpAsyncClient client;
  final List<String> stderr = Collections.synchronizedList(new ArrayList<>());

  private ChildServer(McpAsyncClient client) {
    this.client = client;
  }

  static ChildServer start(String... extraArgs) {
    return start(n -> {}, extraArgs);
  }

  /** As {@link #start(String...)}, handing the server's progress notifications to {@code progress}. */
  static ChildServer start(java.util.function.Consumer<io.modelcontextprotocol.spec.McpSchema.ProgressNotification> progress,
      String... extraArgs) {
    List<String> args = new ArrayList<>(javaCommand());
    args.remove(0);
    args.addAll(List.of(extraArgs));
    ServerParameters params = ServerParameters.builder(javaCommand().get(0)).args(args).build();
    // The SDK's client reads lines of at most 16 MiB characters by default (2.1); a tether_read
    // answer may carry a whole frame's images, so allow what the server allows.
    StdioClientTransport transport = new StdioClientTransport(params, TetherMcpServer.jsonMapper(),
        TetherMcpServer.maxLineChars(Limits.MAX_FRAME_BYTES));
    McpAsyncClient client = McpClient.async(transport).requestTimeout(TIMEOUT)
        .progressConsumer(n -> reactor.core.publisher.Mono.fromRunnable(() -> progress.accept(n))).build();
    ChildServer child = new ChildServer(client);
    transport.setStdErrorHandler(child.stderr::add);
    client.initialize().block(TIMEOUT);
    return child;
  }

  /** {@code java -cp <test classpath> dev.tether.mcp.TestServerMain}. */
  static List<String> javaCommand() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return List.of(java, "-Xmx512m", "-cp", classpath, TestServerMain.class.getName());
  }

  CallToolResult call(String tool, Map<String, Object> arguments) {
    return client.callTool(CallToolRequest.builder(tool).arguments(arguments).build()).block(TIMEOUT);
  }

  /** The first content item's text. */
  static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }

  /** Closes the client, which ends the child; its stderr goes to the test log for diagnosis. */
  @Override
  public void close() {
    client.closeGracefully().block(Duration.ofSeconds(10));
    synchronized (stderr) {
      stderr.forEach(line -> System.err.println("[child stderr] " + line));
    }
  }
}
