package dev.tether.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tether.api.Frame;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.micrometer.TetherMeters;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import dev.tether.store.TetherStore;
import dev.tether.store.sqlite.DurableTetherStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Each condition of the store, client, meters and health auto-configuration. */
class TetherAutoConfigurationTest {
  static final AutoConfigurations TETHER = AutoConfigurations.of(TetherMetersAutoConfiguration.class,
      TetherStoreAutoConfiguration.class, TetherClientAutoConfiguration.class, TetherServerAutoConfiguration.class,
      TetherHealthAutoConfiguration.class);
  final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(TETHER);

  @TempDir Path dir;

  static Frame hello(String text) {
    return Frame.of(SessionKey.host("default"), "m-" + text, Payload.UserMessage.of(text, List.of()));
  }

  /** Sends to instance default and polls it back at once. */
  static void roundTrip(TetherClient client) throws Exception {
    long seq = client.send("default", hello("hi")).get(10, TimeUnit.SECONDS).ingressSeq();
    FramePage page = client.poll("default", PollRequest.channel("host", seq - 1, 0)).get(10, TimeUnit.SECONDS);
    assertThat(page.frames()).extracting(f -> f.msgId().orElseThrow()).contains("m-hi");
  }

  @Test
  void withNoPropertiesAMemoryStoreAndAnInProcessClientForInstanceDefault() {
    runner.run(ctx -> {
      assertThat(ctx).hasSingleBean(MemoryTetherStore.class).hasSingleBean(StoreTetherClient.class)
          .doesNotHaveBean(EmbeddedTetherServer.class).doesNotHaveBean(TetherStoreListeners.class);
      assertThat(ctx.getBean(TetherProperties.class).getInstance()).isEqualTo("default");
      roundTrip(ctx.getBean(TetherClient.class));
    });
  }

  @Test
  void retentionAndBoundsAreTakenFromProperties() {
    runner.withPropertyValues("tether.store.retention.max-frames=7", "tether.store.retention.max-bytes=65536")
        .run(ctx -> {
          MemoryTetherStore store = ctx.getBean(MemoryTetherStore.class);
          assertThat(store.retention().maxFrames()).isEqualTo(7);
          assertThat(store.retention().maxBytes()).isEqualTo(65536);
        });
  }

  @Test
  void sqliteStoreInTheDataDirectory() {
    Path data = dir.resolve("data");
    runner.withPropertyValues("tether.store.type=sqlite", "tether.store.sqlite.data-dir=" + data).run(ctx -> {
      assertThat(ctx).hasSingleBean(DurableTetherStore.class);
      roundTrip(ctx.getBean(TetherClient.class));
      assertThat(Files.exists(data.resolve("journal.db"))).isTrue();
    });
  }

  @Test
  void sqliteWithoutADataDirectoryFailsNamingTheProperty() {
    runner.withPropertyValues("tether.store.type=sqlite").run(ctx -> assertThat(ctx).hasFailed()
        .getFailure().rootCause().hasMessageContaining("tether.store.sqlite.data-dir must be set"));
  }

  @Test
  void aStoreTypeWhoseModuleIsMissingFailsNamingTheModule() {
    runner.withClassLoader(new FilteredClassLoader(DurableTetherStore.class)).withPropertyValues("tether.store.type=sqlite")
        .run(ctx -> assertThat(ctx).hasFailed().getFailure().rootCause()
            .hasMessageContaining("dev.tether:tether-store-sqlite is not on the classpath"));
  }

  @Test
  void relaxedEnumSpellingsAgreeWithTheConditions() {
    runner.withPropertyValues("tether.store.type=MEMORY", "tether.client.mode=in_process")
        .run(ctx -> assertThat(ctx).hasSingleBean(MemoryTetherStore.class).hasSingleBean(StoreTetherClient.class));
  }

  @Test
  void httpModeWithoutAnAddressFailsNamingTheProperty() {
    runner.withPropertyValues("tether.client.mode=http").run(ctx -> assertThat(ctx).hasFailed().getFailure()
        .rootCause().hasMessageContaining("tether.client.address must be set"));
  }

  @Test
  void userBeansWin() {
    runner.withUserConfiguration(UserBeans.class).run(ctx -> {
      assertThat(ctx).hasSingleBean(TetherStore.class).hasSingleBean(TetherClient.class);
      assertThat(ctx.getBean(TetherStore.class)).isSameAs(UserBeans.STORE);
      assertThat(ctx.getBean(TetherClient.class)).isSameAs(UserBeans.CLIENT);
    });
  }

  @Test
  void metersAreBoundWhenThereIsARegistry() {
    runner.withUserConfiguration(Registry.class).run(ctx -> {
      assertThat(ctx).hasSingleBean(TetherStoreListeners.class);
      roundTrip(ctx.getBean(TetherClient.class));
      MeterRegistry registry = ctx.getBean(MeterRegistry.class);
      assertThat(registry.find("tether.frames.appended").tag("store", "memory").functionCounter()).isNotNull();
    });
  }

  @Test
  void metersFollowBootsOwnRegistry() {
    new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
        CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
        .withConfiguration(TETHER).run(ctx -> {
          assertThat(ctx).hasSingleBean(TetherStoreListeners.class);
          roundTrip(ctx.getBean(TetherClient.class));
          assertThat(ctx.getBean(MeterRegistry.class).find("tether.frames.appended").functionCounter()).isNotNull();
        });
  }

  @Test
  void noMetersWithoutARegistryOrWithoutTetherMicrometer() {
    runner.run(ctx -> assertThat(ctx).doesNotHaveBean(TetherStoreListeners.class));
    runner.withUserConfiguration(Registry.class).withClassLoader(new FilteredClassLoader(TetherMeters.class))
        .run(ctx -> assertThat(ctx).hasNotFailed().doesNotHaveBean(TetherStoreListeners.class)
            .hasSingleBean(MemoryTetherStore.class));
  }

  @Test
  void healthIsUpForAnOpenStoreAndDownForAClosedOne() {
    runner.run(ctx -> {
      HealthIndicator health = ctx.getBean("tetherHealthIndicator", HealthIndicator.class);
      assertThat(health.health().getStatus()).isEqualTo(Status.UP);
      ctx.getBean(TetherStore.class).close();
      assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
      assertThat(health.health().getDetails()).containsKey("reason");
    });
  }

  @Test
  void noHealthIndicatorWithoutBootsHealthSupport() {
    runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
        .run(ctx -> assertThat(ctx).hasNotFailed().doesNotHaveBean(TetherHealthIndicator.class));
  }

  @Configuration(proxyBeanMethods = false)
  static class UserBeans {
    static final TetherStore STORE = MemoryTetherStore.create();
    static final TetherClient CLIENT = StoreTetherClient.of(STORE);

    @Bean
    TetherStore myStore() {
      return STORE;
    }

    @Bean
    TetherClient myClient() {
      return CLIENT;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Registry {
    @Bean
    MeterRegistry registry() {
      return new SimpleMeterRegistry();
    }
  }
}
