package dev.tether.spring.boot;

import dev.tether.store.TetherStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * A {@code tether} health indicator ({@link TetherHealthIndicator}) when Boot's health support
 * (spring-boot-health, brought by actuator) is on the classpath and there is a store.
 */
@AutoConfiguration(after = {TetherStoreAutoConfiguration.class, TetherServerAutoConfiguration.class})
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(TetherStore.class)
public class TetherHealthAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean(name = "tetherHealthIndicator")
  TetherHealthIndicator tetherHealthIndicator(TetherStore store, ObjectProvider<EmbeddedTetherServer> server) {
    EmbeddedTetherServer s = server.getIfAvailable();
    return new TetherHealthIndicator(store, s == null ? null : s::readiness);
  }
}
