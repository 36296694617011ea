package dev.tether.coven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.coven.internal.proto.ServerMessage;
import dev.tether.coven.internal.proto.Shutdown;
import dev.tether.coven.testing.FakeGateway;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bytes the agent puts on the wire decode with {@code protoc --decode=coven.AgentMessage}
 * against coven.proto, using the protoc binary that code generation resolved from Maven Central:
 * an independent decoder, not our generated classes.
 */
class WireDecodeTest {
  @TempDir Path tmp;

  @Test
  void everyMessageTheAgentSends_decodesWithProtocAgainstTheSpecProto() throws Exception {
    Path protoc = protoc();
    try (MemoryTetherStore store = MemoryTetherStore.create();
        ScriptedAgent scripted = new ScriptedAgent(store, "vm1");
        FakeGateway gateway = FakeGateway.start()) {
      CovenAgent agent = CovenAgent.builder().gateway(gateway.target()).plaintext().agentId("wire-agent-1").name("wire")
          .tether(StoreTetherClient.of(store), "vm1").heartbeatInterval(Duration.ofMillis(200)).build();
      agent.start();
      FakeGateway.Conn conn = gateway.nextConnection(CovenAgentTest.WAIT);
      conn.next(CovenAgentTest.WAIT);
      conn.send(CovenAgentTest.send("wire-1", "a chart please"));
      conn.responsesUntilTerminal("wire-1", CovenAgentTest.WAIT);
      Thread.sleep(300); // at least one heartbeat
      conn.send(ServerMessage.newBuilder().setShutdown(Shutdown.newBuilder().setReason("done")).build());
      agent.awaitTermination(CovenAgentTest.WAIT);

      List<String> decoded = new ArrayList<>();
      for (byte[] wire : gateway.wireMessages) {
        decoded.add(decode(protoc, wire));
      }
      String first = decoded.get(0);
      assertTrue(first.startsWith("register {"), first);
      assertTrue(first.contains("agent_id: \"wire-agent-1\""), first);
      assertTrue(first.contains("protocol_features: \"cancellation\""), first);
      String all = String.join("\n", decoded);
      assertTrue(all.contains("heartbeat {\n  timestamp_ms: "), all);
      assertTrue(all.contains("request_id: \"wire-1\"\n  text: \"Here is your chart.\""), all);
      assertTrue(all.contains("  file {\n    filename: \"image-1.png\"\n    mime_type: \"image/png\"\n    data: \"\\211PNG"), all);
      assertTrue(all.contains("  usage {\n    input_tokens: 12\n    output_tokens: 5\n  }"), all);
      assertTrue(all.contains("  done {\n    full_response: \"Here is your chart.\"\n  }"), all);
    }
  }

  private String decode(Path protoc, byte[] wire) throws IOException, InterruptedException {
    Path in = Files.write(tmp.resolve("msg.bin"), wire);
    Path err = tmp.resolve("err.txt");
    Process p = new ProcessBuilder(protoc.toString(), "--decode=coven.AgentMessage",
        "--proto_path=" + Path.of("src/main/protobuf").toAbsolutePath(), "coven.proto")
        .redirectInput(in.toFile()).redirectError(err.toFile()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "protoc did not finish");
    assertEquals(0, p.exitValue(), "protoc failed: " + Files.readString(err));
    return out;
  }

  /** The protoc of the build's protobuf version for this platform, copied and made executable. */
  private Path protoc() throws IOException {
    String dir = System.getProperty("protoc.dir");
    String version = System.getProperty("protoc.version");
    assumeTrue(dir != null && version != null, "run through Maven (surefire passes protoc.dir)");
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String classifier = (os.contains("mac") ? "osx" : os.contains("win") ? "windows" : "linux") + "-"
        + (arch.equals("aarch64") || arch.equals("arm64") ? "aarch_64" : "x86_64");
    Path exe = Path.of(dir, "protoc-" + version + "-" + classifier + ".exe");
    assertTrue(Files.isRegularFile(exe), "code generation resolved " + exe);
    Path copy = Files.copy(exe, tmp.resolve("protoc"), StandardCopyOption.REPLACE_EXISTING);
    assertTrue(copy.toFile().setExecutable(true));
    return copy;
  }
}
