package dev.tether.spring.boot;

import dev.tether.micrometer.ServerMeters;
import dev.tether.micrometer.TetherMeters;
import dev.tether.server.TetherServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * tether's Micrometer meters ({@code tether.*}, see tether-micrometer) when tether-micrometer is on
 * the classpath and the context has a {@link MeterRegistry} bean (Boot's metrics auto-configuration
 * makes one when actuator is present): the {@link TetherStoreListeners} the store
 * auto-configuration passes to its store, and, with the embedded server, a
 * {@link TetherServerCustomizer} for its request meters and gauges. Without a registry nothing is
 * recorded and nothing is timed.
 *
 * <p>{@link TetherMeters} itself is not a bean: its methods name the optional telegram and coven
 * types, which Spring's introspection of a bean class would have to load.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass({MeterRegistry.class, TetherMeters.class})
@ConditionalOnBean(MeterRegistry.class)
public class TetherMetersAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean(TetherStoreListeners.class)
  TetherStoreListeners tetherStoreMeters(MeterRegistry registry) {
    TetherMeters meters = TetherMeters.of(registry);
    return meters::storeListener;
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(TetherServer.class)
  static class Server {
    @Bean
    TetherServerCustomizer tetherServerMeters(MeterRegistry registry) {
      ServerMeters http = TetherMeters.of(registry).serverListener();
      return new TetherServerCustomizer() {
        @Override
        public void customize(TetherServer.Builder builder) {
          builder.listener(http);
        }

        @Override
        public void started(TetherServer server) {
          http.bind(server);
        }
      };
    }
  }
}
