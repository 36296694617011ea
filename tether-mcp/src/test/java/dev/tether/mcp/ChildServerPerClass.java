package dev.tether.mcp;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link ChildServer} for all the tests of a class: started before the first, closed after
 * the last. Register it as {@code @RegisterExtension static final ChildServerPerClass server = new
 * ChildServerPerClass();}. Each test class gets its own instance, so classes never share a child.
 */
final class ChildServerPerClass implements BeforeAllCallback, AfterAllCallback {
  private volatile ChildServer child;

  @Override
  public void beforeAll(ExtensionContext context) {
    child = ChildServer.start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    ChildServer started = child;
    child = null;
    if (started != null) {
      started.close();
    }
  }

  /** The SDK client connected to the child. */
  McpAsyncClient client() {
    return started().client;
  }

  /** See {@link ChildServer#call}. */
  CallToolResult call(String tool, Map<String, Object> arguments) {
    return started().call(tool, arguments);
  }

  private ChildServer started() {
    ChildServer started = child;
    if (started == null) {
      throw new IllegalStateException("the child server runs only while the test class does");
    }
    return started;
  }
}
