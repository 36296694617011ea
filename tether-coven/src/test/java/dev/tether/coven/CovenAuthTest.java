package dev.tether.coven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.coven.testing.FakeGateway;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import io.grpc.Metadata;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The credentials as the gateway checks them: bearer token, SSH keys (Ed25519, RSA). */
class CovenAuthTest {
  static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  static final Metadata.Key<String> PUBKEY = Metadata.Key.of("x-ssh-pubkey", Metadata.ASCII_STRING_MARSHALLER);
  static final Metadata.Key<String> NONCE = Metadata.Key.of("x-ssh-nonce", Metadata.ASCII_STRING_MARSHALLER);

  @TempDir Path dir;
  MemoryTetherStore store;
  FakeGateway gateway;
  RecordingListener listener = new RecordingListener();
  CovenAgent agent;

  @BeforeEach
  void setUp() throws Exception {
    store = MemoryTetherStore.create();
    gateway = FakeGateway.start();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (agent != null) {
      agent.close();
    }
    gateway.close();
    store.close();
  }

  CovenAgent start(CovenCredentials credentials) throws Exception {
    agent = CovenAgent.builder().gateway(gateway.target()).plaintext().credentials(credentials).agentId("auth-agent")
        .tether(StoreTetherClient.of(store), "vm1").reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(300))
        .listener(listener).build();
    agent.start();
    return agent;
  }

  @Test
  void bearerTokenFile_isSentAsAuthorizationBearer() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
    gateway.auth = md -> "Bearer s3cret-token".equals(md.get(AUTHORIZATION));
    start(CovenCredentials.bearerTokenFile(token));
    CovenAgentTest.waitFor(() -> listener.welcomes.size() == 1, "the welcome");
    assertTrue(CovenCredentials.bearerTokenFile(token).toString().indexOf("s3cret") < 0, "toString never shows the secret");
  }

  @Test
  void refusedCredentials_stopTheAgentAsRefused_withoutRetrying() throws Exception {
    gateway.auth = md -> false;
    CovenTermination end = start(CovenCredentials.bearerToken("wrong")).termination().get(20, TimeUnit.SECONDS);
    assertEquals(CovenTermination.Reason.REFUSED, end.reason());
    assertTrue(end.detail().startsWith("UNAUTHENTICATED"), end.detail());
    Thread.sleep(500);
    assertEquals(1, gateway.headers.size(), "no retry with credentials the gateway refused");
  }

  @Test
  void blankTokenFile_isRefusedBeforeConnecting() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CovenCredentials.bearerTokenFile(token));
    assertTrue(e.getMessage().contains(token.toString()), e.getMessage());
  }

  @Test
  void ed25519Key_signsAFreshTimestampAndNoncePerStream_thatTheJdkVerifies() throws Exception {
    Path key = sshKeygen("ed25519");
    JdkSshVerifier verifier = new JdkSshVerifier();
    gateway.auth = verifier::verify;
    start(CovenCredentials.sshKey(key));
    FakeGateway.Conn first = gateway.nextConnection(CovenAgentTest.WAIT);
    CovenAgentTest.waitFor(() -> listener.welcomes.size() == 1, "the welcome");
    first.complete(); // the gateway drops the stream: the agent signs again for the next one
    gateway.nextConnection(CovenAgentTest.WAIT);
    CovenAgentTest.waitFor(() -> listener.welcomes.size() == 2, "the second welcome");
    String pub = Files.readString(Path.of(key + ".pub")).strip();
    assertTrue(pub.startsWith(gateway.headers.get(0).get(PUBKEY) + " "), "x-ssh-pubkey is the authorized_keys line");
    assertNotEquals(gateway.headers.get(0).get(NONCE), gateway.headers.get(1).get(NONCE));
    assertEquals(2, verifier.nonces.size());
  }

  @Test
  void rsaKey_signsWithRsaSha2_512() throws Exception {
    Path key = sshKeygen("rsa");
    gateway.auth = new JdkSshVerifier()::verify;
    start(CovenCredentials.sshKey(key));
    CovenAgentTest.waitFor(() -> listener.welcomes.size() == 1, "the welcome");
  }

  @Test
  void passphraseProtectedKey_isRefusedWithASentenceSayingSo() throws Exception {
    Path key = sshKeygen("ed25519", "-N", "a passphrase");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CovenCredentials.sshKey(key));
    assertTrue(e.getMessage().contains("passphrase"), e.getMessage());
  }

  @Test
  void aFileThatIsNoOpenSshKey_isRefusedNamingTheFormat() throws Exception {
    Path notKey = Files.writeString(dir.resolve("id.pub"), "ssh-ed25519 AAAA me@host\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CovenCredentials.sshKey(notKey));
    assertTrue(e.getMessage().contains("OPENSSH PRIVATE KEY"), e.getMessage());
  }

  private Path sshKeygen(String type, String... extra) throws Exception {
    Path keygen = Path.of("/usr/bin/ssh-keygen");
    assumeTrue(Files.isExecutable(keygen), "ssh-keygen (Debian openssh-client) makes real key files");
    Path key = dir.resolve("id_" + type);
    java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(keygen.toString(), "-q", "-t", type, "-f", key.toString(), "-C", "test@coven"));
    if (extra.length == 0) {
      cmd.addAll(java.util.List.of("-N", ""));
    } else {
      cmd.addAll(java.util.List.of(extra));
    }
    if (type.equals("rsa")) {
      cmd.addAll(java.util.List.of("-b", "2048"));
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "ssh-keygen: " + out);
    return key;
  }
}
