package dev.tether.spring.boot;

import dev.tether.client.HostAddress;
import dev.tether.client.TetherClient;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.store.StoreTetherClient;
import dev.tether.store.TetherStore;
import java.io.IOException;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The application's {@link TetherClient}, unless it defines one. {@code tether.client.mode}
 * {@code in-process} (the default): sends append to the {@link TetherStore} bean and polls wait on
 * it, any instance name, no network hop. {@code http}: the HTTP API of the daemon at
 * {@code tether.client.address}, with the bearer token read from {@code tether.client.token-file}
 * (never a token in the properties). The context closes the client.
 */
@AutoConfiguration(after = TetherStoreAutoConfiguration.class)
@EnableConfigurationProperties(TetherProperties.class)
public class TetherClientAutoConfiguration {

  @Configuration(proxyBeanMethods = false)
  @Conditional(TetherConditions.InProcessClient.class)
  static class InProcess {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(TetherClient.class)
    StoreTetherClient tetherClient(TetherStore store) {
      return StoreTetherClient.of(store);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @Conditional(TetherConditions.HttpClient.class)
  @ConditionalOnClass(HttpTetherClient.class)
  static class Http {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(TetherClient.class)
    HttpTetherClient tetherClient(TetherProperties properties) throws IOException {
      TetherProperties.Client p = properties.getClient();
      if (p.getAddress() == null || p.getAddress().isBlank()) {
        throw new IllegalStateException("tether.client.address must be set when tether.client.mode is http");
      }
      HttpTetherClient.Builder b = HttpTetherClient.builder(HostAddress.parse(p.getAddress())).blobImages(p.isBlobImages());
      if (p.getTokenFile() != null) {
        b.tokenFile(p.getTokenFile());
      }
      return b.build();
    }
  }

  /** http mode without tether-client-http: a start-up failure that names the module. */
  @Configuration(proxyBeanMethods = false)
  @Conditional(TetherConditions.HttpClient.class)
  @ConditionalOnMissingClass("dev.tether.client.http.HttpTetherClient")
  static class HttpMissing {
    @Bean
    @ConditionalOnMissingBean(TetherClient.class)
    TetherClient tetherClient() {
      throw new IllegalStateException("tether.client.mode is http but dev.tether:tether-client-http is not on the classpath");
    }
  }
}
