package dev.tether.spring.boot;

import dev.tether.store.MemoryTetherStore;
import dev.tether.store.Retention;
import dev.tether.store.StoreListener;
import dev.tether.store.TetherStore;
import dev.tether.store.jetstream.JetStreamTetherStore;
import dev.tether.store.sqlite.DurableTetherStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link TetherStore} bean, of the type {@code tether.store.type} names (default
 * {@code memory}), unless the application defines one. The store gets its listener from the
 * {@link TetherStoreListeners} bean when there is one (the meters of {@link TetherMetersAutoConfiguration}). A sqlite or jetstream store
 * whose module is missing from the classpath fails the start-up with a message naming the module.
 * The context closes the store.
 */
@AutoConfiguration(after = TetherMetersAutoConfiguration.class)
@EnableConfigurationProperties(TetherProperties.class)
public class TetherStoreAutoConfiguration {

  /** The listener for {@code storeName}: from the application's {@link TetherStoreListeners}, else none. */
  static StoreListener listener(ObjectProvider<TetherStoreListeners> listeners, String storeName) {
    TetherStoreListeners l = listeners.getIfAvailable();
    return l == null ? StoreListener.NONE : l.forStore(storeName);
  }

  static Retention retention(TetherProperties.Retention r) {
    Retention.Builder b = Retention.builder().deltasInRing(r.isDeltasInRing());
    if (r.getMaxFrames() != null) {
      b.maxFrames(r.getMaxFrames());
    }
    if (r.getMaxBytes() != null) {
      b.maxBytes(r.getMaxBytes());
    }
    return b.build();
  }

  @Configuration(proxyBeanMethods = false)
  @Conditional(TetherConditions.MemoryStore.class)
  static class Memory {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(TetherStore.class)
    MemoryTetherStore tetherStore(TetherProperties properties, ObjectProvider<TetherStoreListeners> listeners) {
      TetherProperties.Store p = properties.getStore();
      MemoryTetherStore.Builder b = MemoryTetherStore.builder().retention(retention(p.getRetention()))
          .listener(listener(listeners, "memory"));
      if (p.getMaxTotalBytes() != null) {
        b.maxTotalBytes(p.getMaxTotalBytes());
      }
      if (p.getMaxInstances() != null) {
        b.maxInstances(p.getMaxInstances());
      }
      return b.build();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @Conditional(TetherConditions.SqliteStore.class)
  @ConditionalOnClass(DurableTetherStore.class)
  static class Sqlite {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(TetherStore.class)
    DurableTetherStore tetherStore(TetherProperties properties, ObjectProvider<TetherStoreListeners> listeners)
        throws IOException {
      TetherProperties.Store p = properties.getStore();
      Path dir = p.getSqlite().getDataDir();
      if (dir == null) {
        throw new IllegalStateException("tether.store.sqlite.data-dir must be set when tether.store.type is sqlite");
      }
      Files.createDirectories(dir);
      DurableTetherStore.Builder b = DurableTetherStore.builder(dir.resolve("journal.db"))
          .retention(retention(p.getRetention())).listener(listener(listeners, "sqlite"));
      if (p.getMaxTotalBytes() != null) {
        b.maxTotalBytes(p.getMaxTotalBytes());
      }
      if (p.getMaxInstances() != null) {
        b.maxInstances(p.getMaxInstances());
      }
      return b.open();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @Conditional(TetherConditions.JetStreamStore.class)
  @ConditionalOnClass(JetStreamTetherStore.class)
  static class JetStream {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(TetherStore.class)
    JetStreamTetherStore tetherStore(TetherProperties properties, ObjectProvider<TetherStoreListeners> listeners)
        throws IOException {
      TetherProperties.Store p = properties.getStore();
      TetherProperties.Jetstream js = p.getJetstream();
      List<String> servers = js.getServers();
      if (servers == null || servers.isEmpty()) {
        throw new IllegalStateException("tether.store.jetstream.servers must name at least one NATS URL"
            + " when tether.store.type is jetstream");
      }
      JetStreamTetherStore.Builder b = JetStreamTetherStore.builder().servers(servers)
          .retention(retention(p.getRetention())).subjectPrefix(js.getSubjectPrefix())
          .listener(listener(listeners, "jetstream"));
      if (js.getCredentialsFile() != null) {
        b.credentialsFile(js.getCredentialsFile());
      }
      if (js.getTokenFile() != null) {
        b.token(Files.readString(js.getTokenFile()).trim().toCharArray());
      }
      if (js.getReplicas() != null) {
        b.replicas(js.getReplicas());
      }
      if (js.isTls()) {
        b.tls();
      }
      if (p.getMaxInstances() != null) {
        b.maxViews(p.getMaxInstances());
      }
      return b.connect();
    }
  }

  /** A store type whose module is not on the classpath: a start-up failure that names the module. */
  @Configuration(proxyBeanMethods = false)
  @Conditional(TetherConditions.SqliteStore.class)
  @ConditionalOnMissingClass("dev.tether.store.sqlite.DurableTetherStore")
  static class SqliteMissing {
    @Bean
    @ConditionalOnMissingBean(TetherStore.class)
    TetherStore tetherStore() {
      throw new IllegalStateException("tether.store.type is sqlite but dev.tether:tether-store-sqlite is not on the classpath");
    }
  }

  /** As {@link SqliteMissing}, for jetstream. */
  @Configuration(proxyBeanMethods = false)
  @Conditional(TetherConditions.JetStreamStore.class)
  @ConditionalOnMissingClass("dev.tether.store.jetstream.JetStreamTetherStore")
  static class JetStreamMissing {
    @Bean
    @ConditionalOnMissingBean(TetherStore.class)
    TetherStore tetherStore() {
      throw new IllegalStateException(
          "tether.store.type is jetstream but dev.tether:tether-store-jetstream is not on the classpath");
    }
  }
}
