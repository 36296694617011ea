package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code src/test/node/e2e.mjs}: an independent client (the official TypeScript MCP SDK,
 * pinned in {@code package.json}) lists the tools, sends a message with images to
 * {@link TestServerMain} over stdio, long-polls the answers and checks the {@code _mcp_index}
 * correlation across two {@code assistant.done} frames.
 *
 * <p>Skipped only when {@code node} is not installed. When node is there but the npm package is
 * not, the test fails and says to run {@code tether-mcp/src/test/node/install.sh} (CI does), unless
 * {@code -Dtether.skipNodeE2e=true} is given.
 */
class NodeEndToEndTest {
  private static final Path DIR = Path.of("src", "test", "node");

  @Test
  void typescriptSdkClient_sendsImagesAndCorrelatesTheAnswersImages() throws Exception {
    Assumptions.assumeTrue(nodeVersion() != null, "node is not installed; the Node end-to-end test is skipped");
    Assumptions.assumeFalse(Boolean.getBoolean("tether.skipNodeE2e"), "skipped with -Dtether.skipNodeE2e=true");
    if (!Files.isDirectory(DIR.resolve("node_modules/@modelcontextprotocol/sdk"))) {
      fail("node is installed but @modelcontextprotocol/sdk is not: run tether-mcp/src/test/node/install.sh"
          + " (npm ci), or pass -Dtether.skipNodeE2e=true");
    }
    List<String> java = ChildServer.javaCommand();
    ProcessBuilder pb = new ProcessBuilder("node", "e2e.mjs").directory(DIR.toFile()).redirectErrorStream(true);
    pb.environment().put("TETHER_JAVA", java.get(0));
    pb.environment().put("TETHER_CLASSPATH", java.get(java.indexOf("-cp") + 1));
    Process process = pb.start();
    CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(process));
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("e2e.mjs did not finish within 120 s:\n" + output.getNow("(no output yet)"));
    }
    String log = output.get(30, TimeUnit.SECONDS);
    assertEquals(0, process.exitValue(), "e2e.mjs failed:\n" + log);
    assertTrue(log.contains("tether MCP e2e: OK"), log);
  }

  private static String readAll(Process process) {
    try {
      return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(output unreadable: " + e + ")";
    }
  }

  private static String nodeVersion() {
    try {
      Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
      String version = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? version : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
