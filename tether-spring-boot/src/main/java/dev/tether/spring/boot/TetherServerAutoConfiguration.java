package dev.tether.spring.boot;

import dev.tether.server.TetherServer;
import dev.tether.store.TetherStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The embedded {@link TetherServer} when {@code tether.server.enabled=true} and tether-server is on
 * the classpath: an {@link EmbeddedTetherServer} over the {@link TetherStore} bean, started and
 * stopped with the context. Off by default.
 */
@AutoConfiguration(after = {TetherStoreAutoConfiguration.class, TetherMetersAutoConfiguration.class})
@ConditionalOnClass(TetherServer.class)
@ConditionalOnProperty(name = "tether.server.enabled", havingValue = "true")
@EnableConfigurationProperties(TetherProperties.class)
public class TetherServerAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean(EmbeddedTetherServer.class)
  EmbeddedTetherServer embeddedTetherServer(TetherProperties properties, TetherStore store,
      ObjectProvider<TetherServerCustomizer> customizers) {
    return new EmbeddedTetherServer(properties.getServer(), store, customizers.orderedStream().toList());
  }
}
