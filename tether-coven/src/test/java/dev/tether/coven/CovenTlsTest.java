package dev.tether.coven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.coven.testing.FakeGateway;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS to the gateway: trusted through --tls-ca's file, and refused when the CA is another. */
class CovenTlsTest {
  @TempDir Path dir;

  @Test
  void tlsWithTheGatewaysCa_registers_andAnswers() throws Exception {
    Path[] ca = selfSigned("gw");
    try (MemoryTetherStore store = MemoryTetherStore.create();
        ScriptedAgent scripted = new ScriptedAgent(store, "vm1");
        FakeGateway gateway = FakeGateway.startTls(ca[0].toFile(), ca[1].toFile());
        CovenAgent agent = CovenAgent.builder().gateway(gateway.target()).tls(ca[0]).agentId("tls-agent")
            .tether(StoreTetherClient.of(store), "vm1").build()) {
      agent.start();
      FakeGateway.Conn conn = gateway.nextConnection(CovenAgentTest.WAIT);
      assertEquals("tls-agent", conn.next(CovenAgentTest.WAIT).getRegister().getAgentId());
      conn.send(CovenAgentTest.send("tls-1", "hello"));
      assertEquals("You said: hello", CovenAgentTest.last(conn.responsesUntilTerminal("tls-1", CovenAgentTest.WAIT))
          .getDone().getFullResponse());
    }
  }

  @Test
  void tlsWithAnotherCa_neverReachesTheGateway_andKeepsRetrying() throws Exception {
    Path[] real = selfSigned("gw");
    Path[] other = selfSigned("other");
    RecordingListener listener = new RecordingListener();
    try (MemoryTetherStore store = MemoryTetherStore.create();
        FakeGateway gateway = FakeGateway.startTls(real[0].toFile(), real[1].toFile());
        CovenAgent agent = CovenAgent.builder().gateway(gateway.target()).tls(other[0]).agentId("tls-agent")
            .tether(StoreTetherClient.of(store), "vm1").reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(200))
            .listener(listener).build()) {
      agent.start();
      CovenAgentTest.waitFor(() -> listener.lines.stream().filter(l -> l.startsWith("disconnected UNAVAILABLE")).count() >= 2,
          "two failed handshakes");
      assertTrue(gateway.connections.isEmpty(), "no stream reached the gateway");
      assertTrue(listener.welcomes.isEmpty());
    }
  }

  /** A self-signed certificate for 127.0.0.1 and its PKCS#8 key, made with openssl. */
  private Path[] selfSigned(String name) throws Exception {
    Path openssl = Path.of("/usr/bin/openssl");
    assumeTrue(Files.isExecutable(openssl), "openssl makes the test certificates");
    Path cert = dir.resolve(name + ".crt");
    Path key = dir.resolve(name + ".key");
    Process p = new ProcessBuilder(List.of(openssl.toString(), "req", "-x509", "-newkey", "ec", "-pkeyopt",
        "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key.toString(), "-out", cert.toString(), "-days", "1",
        "-subj", "/CN=" + name, "-addext", "subjectAltName=IP:127.0.0.1")).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "openssl: " + out);
    return new Path[] {cert, key};
  }
}
