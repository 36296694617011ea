package dev.tether.spring.boot;

import static dev.tether.spring.boot.TetherAutoConfigurationTest.TETHER;
import static dev.tether.spring.boot.TetherAutoConfigurationTest.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tether.client.HostAddress;
import dev.tether.client.TetherClient;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.TetherServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded server on and off, a real HTTP client of it from a second context (a token file,
 * 127.0.0.1 on a free port), its meters, and a customizer.
 */
class TetherServerAutoConfigurationTest {
  final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(TETHER);

  @TempDir Path dir;

  String[] tcpServer() {
    return new String[] {"tether.server.enabled=true", "tether.server.listen=127.0.0.1:0",
        "tether.server.token-file=" + dir.resolve("token")};
  }

  @Test
  void offByDefaultAndWhenDisabled() {
    runner.run(ctx -> assertThat(ctx).doesNotHaveBean(EmbeddedTetherServer.class));
    runner.withPropertyValues("tether.server.enabled=false").run(ctx -> assertThat(ctx).doesNotHaveBean(EmbeddedTetherServer.class));
  }

  @Test
  void offWithoutTetherServerOnTheClasspath() {
    runner.withClassLoader(new FilteredClassLoader(TetherServer.class)).withPropertyValues(tcpServer())
        .run(ctx -> assertThat(ctx).hasNotFailed().doesNotHaveBean(EmbeddedTetherServer.class));
  }

  @Test
  void startsWithTheContextServesAnHttpClientAndStopsWithIt() {
    AtomicReference<EmbeddedTetherServer> server = new AtomicReference<>();
    runner.withPropertyValues(tcpServer()).run(ctx -> {
      EmbeddedTetherServer s = ctx.getBean(EmbeddedTetherServer.class);
      server.set(s);
      assertThat(s.isRunning()).isTrue();
      assertThat(s.readiness().ready()).isTrue();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("token")))).isEqualTo("rw-------");
      HostAddress.Tcp bound = (HostAddress.Tcp) s.boundAddress();
      assertThat(bound.port()).isPositive();
      // The server shares the context's store: what arrives over HTTP is seen in-process.
      runner.withPropertyValues("tether.client.mode=http", "tether.client.address=127.0.0.1:" + bound.port(),
          "tether.client.token-file=" + dir.resolve("token")).run(remote -> {
            assertThat(remote).hasSingleBean(HttpTetherClient.class);
            roundTrip(remote.getBean(TetherClient.class));
          });
      assertThat(ctx.getBean(TetherClient.class).poll("default", dev.tether.client.PollRequest.channel("host", 0, 0))
          .get().frames()).isNotEmpty();
      assertThat(ctx.getBean("tetherHealthIndicator", HealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
    });
    assertThat(server.get().isRunning()).isFalse();
    assertThat(server.get().readiness().ready()).isFalse();
  }

  @Test
  void aTcpListenerWithoutATokenFailsTheStartUp() {
    runner.withPropertyValues("tether.server.enabled=true", "tether.server.listen=127.0.0.1:0")
        .run(ctx -> assertThat(ctx).hasFailed());
  }

  @Test
  void aNonLoopbackListenerIsRefusedUnlessAllowed() {
    runner.withPropertyValues("tether.server.enabled=true", "tether.server.listen=192.0.2.1:0",
        "tether.server.token-file=" + dir.resolve("token"))
        .run(ctx -> assertThat(ctx).hasFailed().getFailure().rootCause().hasMessageContaining("non-loopback"));
  }

  @Test
  void serverMetersAndCustomizersApply() {
    runner.withUserConfiguration(RegistryAndCustomizer.class).withPropertyValues(tcpServer()).run(ctx -> {
      assertThat(RegistryAndCustomizer.started.get()).isSameAs(ctx.getBean(EmbeddedTetherServer.class).server());
      assertThat(ctx.getBean(MeterRegistry.class).find("tether.waits.active").gauge()).isNotNull();
    });
  }

  @Configuration(proxyBeanMethods = false)
  static class RegistryAndCustomizer {
    static final AtomicReference<TetherServer> started = new AtomicReference<>();

    @Bean
    MeterRegistry registry() {
      return new SimpleMeterRegistry();
    }

    @Bean
    TetherServerCustomizer recordStart() {
      return new TetherServerCustomizer() {
        @Override
        public void customize(TetherServer.Builder builder) {
          builder.maxThreads(8);
        }

        @Override
        public void started(TetherServer server) {
          started.set(server);
        }
      };
    }
  }
}
