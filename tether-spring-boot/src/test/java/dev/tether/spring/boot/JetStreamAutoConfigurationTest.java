package dev.tether.spring.boot;

import static dev.tether.spring.boot.TetherAutoConfigurationTest.TETHER;
import static dev.tether.spring.boot.TetherAutoConfigurationTest.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tether.client.TetherClient;
import dev.tether.store.jetstream.JetStreamTetherStore;
import dev.tether.store.jetstream.testing.NatsServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** tether.store.type=jetstream against a real nats-server (skipped without one, outside CI). */
class JetStreamAutoConfigurationTest {
  @TempDir static Path dir;
  static NatsServer nats;

  @BeforeAll
  static void start() {
    nats = NatsServer.single(dir);
  }

  @AfterAll
  static void stop() {
    if (nats != null) {
      nats.close();
    }
  }

  @Test
  void aJetStreamStoreOnTheConfiguredServers() {
    new ApplicationContextRunner().withConfiguration(TETHER)
        .withPropertyValues("tether.store.type=jetstream", "tether.store.jetstream.servers=" + nats.url(),
            "tether.store.jetstream.subject-prefix=boot")
        .run(ctx -> {
          assertThat(ctx).hasSingleBean(JetStreamTetherStore.class);
          assertThat(ctx.getBean(JetStreamTetherStore.class).subjectPrefix()).isEqualTo("boot");
          roundTrip(ctx.getBean(TetherClient.class));
        });
  }

  @Test
  void jetstreamWithoutServersFailsNamingTheProperty() {
    new ApplicationContextRunner().withConfiguration(TETHER).withPropertyValues("tether.store.type=jetstream")
        .run(ctx -> assertThat(ctx).hasFailed().getFailure().rootCause()
            .hasMessageContaining("tether.store.jetstream.servers must name at least one NATS URL"));
  }
}
