package dev.tether.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The processor's metadata (IDE completion) is in the jar, with the descriptions of the fields. */
class ConfigurationMetadataTest {
  @Test
  void everyGroupIsDescribed() throws Exception {
    String json;
    try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).isNotNull();
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(json).contains("\"tether.store.type\"", "\"tether.store.sqlite.data-dir\"",
        "\"tether.store.jetstream.servers\"", "\"tether.store.retention.max-frames\"", "\"tether.client.mode\"",
        "\"tether.client.token-file\"", "\"tether.server.enabled\"", "\"tether.server.listen\"",
        "Which store: memory, sqlite or jetstream.");
  }
}
