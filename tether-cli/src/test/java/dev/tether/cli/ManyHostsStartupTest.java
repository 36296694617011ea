package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tether.client.HostAddress;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.jetstream.testing.NatsServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 32, the README's two-host block as pasted: a fresh 3-node cluster and two
 * {@code serve --nats} started at the same moment, while the cluster forms; both register
 * {@code default} at once. Both must come up and serve the one instance (the loser of the
 * registration finds the winner's entry), several times over on fresh clusters.
 */
@Tag("cluster")
class ManyHostsStartupTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "fresh cluster {0}")
  @ValueSource(ints = {1, 2, 3})
  void twoHostsStartedTogether_onAFormingCluster_bothComeUp(int run) throws Exception {
    NatsServer.binary();
    List<NatsServer> nodes = NatsServer.cluster(dir.resolve("nats"), 3);
    try (ChildJvm a = serve("a", nodes.get(0)); ChildJvm b = serve("b", nodes.get(1))) {
      a.awaitStderr("listening on", 90_000);
      b.awaitStderr("listening on", 90_000);
      for (String name : List.of("a", "b")) {
        try (RawHttp http = new RawHttp(new HostAddress.Unix(dir.resolve(name + ".sock")))) {
          assertEquals(200, http.get("/v1/instances/default").status(), "host " + name + " serves default");
        }
      }
      for (ChildJvm c : List.of(a, b)) {
        String err = c.stderrText();
        assertFalse(err.contains("\tat "), "no stack trace: " + err);
        System.out.println("ManyHostsStartupTest run " + run + ": " + err.lines().filter(l -> l.contains("retrying")).count()
            + " start-up retries");
      }
    } finally {
      nodes.forEach(NatsServer::close);
    }
  }

  private ChildJvm serve(String name, NatsServer node) throws Exception {
    return ChildJvm.startWith(dir, "serve-" + name, Map.of(), List.of("-Xmx256m"), "serve", "--socket",
        dir.resolve(name + ".sock").toString(), "--nats", node.url(), "--workspaces", dir.resolve("ws-" + name).toString());
  }
}
