package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.SessionKey;
import dev.tether.client.AttachmentClient;
import dev.tether.client.AttachmentInfo;
import dev.tether.media.MediaFetcher;
import dev.tether.media.MediaRegistry;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tools' schemas are checked here, against the SDK's own validator, instead of at every start:
 * the validator the servers give the SDK ({@link McpJson#SCHEMA_VALIDATOR}) answers the SDK's
 * start-up schema check without loading the schema library.
 */
class ToolSchemasTest {
  private static final JsonSchemaValidator SDK_VALIDATOR = new DefaultJsonSchemaValidator(McpJson.MAPPER);

  @TempDir
  Path temp;

  @Test
  void everyToolsSchemas_passTheSdksValidator_inEveryConfiguration() throws IOException {
    TreeSet<String> names = new TreeSet<>();
    for (List<AsyncToolSpecification> tools : configurations()) {
      for (AsyncToolSpecification spec : tools) {
        String name = spec.tool().name();
        names.add(name);
        SDK_VALIDATOR.assertConforms("Tool '" + name + "' input schema", spec.tool().inputSchema());
        if (spec.tool().outputSchema() != null) {
          SDK_VALIDATOR.assertConforms("Tool '" + name + "' output schema", spec.tool().outputSchema());
        }
      }
    }
    // Every tool the servers offer went through the check above.
    assertEquals(new TreeSet<>(List.of("tether_send", "tether_read", "tether_send_stream", "tether_approvals",
        "tether_approve", "list_attachments", "read_attachment", "view_attachment", "grep_attachment", "list_media",
        "fetch_media")), names);
  }

  @Test
  void theSdksValidator_refusesABrokenSchema_soTheCheckAboveCanFail() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SDK_VALIDATOR.assertConforms("broken", Map.of("type", "nonsense")));
    assertTrue(e.getMessage().contains("broken"), e.getMessage());
  }

  @Test
  void theServersValidator_stillChecksContent_withTheSdksValidator() {
    Map<String, Object> schema = Map.of("type", "object", "properties", Map.of("n", Map.of("type", "integer")),
        "required", List.of("n"));
    assertTrue(McpJson.SCHEMA_VALIDATOR.validate(schema, Map.of("n", 3)).valid());
    assertEquals(false, McpJson.SCHEMA_VALIDATOR.validate(schema, Map.of("n", "three")).valid());
    assertEquals(false, McpJson.SCHEMA_VALIDATOR.validate(schema, Map.of()).valid());
  }

  /** A host with no attachments: its tools' schemas are what is read here. */
  private static final class NoAttachments implements AttachmentClient {
    @Override
    public CompletableFuture<AttachmentInfo> putAttachment(String instance, SessionKey session, String fileName,
        String mimeType, byte[] bytes) {
      return CompletableFuture.failedFuture(new IOException("read-only"));
    }

    @Override
    public CompletableFuture<List<AttachmentInfo>> attachments(String instance, SessionKey session) {
      return CompletableFuture.completedFuture(List.of());
    }

    @Override
    public CompletableFuture<byte[]> attachment(String instance, SessionKey session, String name) {
      return CompletableFuture.failedFuture(new IOException("no attachment " + name));
    }
  }

  /** The tool lists a server can have: the chat-media tools come either from a registry or a bridge. */
  private List<List<AsyncToolSpecification>> configurations() throws IOException {
    MemoryTetherStore store = MemoryTetherStore.create();
    StoreTetherClient client = StoreTetherClient.builder(store).build();
    MediaRegistry registry = TestMedia.registry();
    List<List<AsyncToolSpecification>> all = new ArrayList<>();
    try (MediaFetcher fetcher = TestMedia.fetcher(registry, temp.resolve("media"))) {
      all.add(TetherMcpServer.builder(client).build().tools());
      all.add(TetherMcpServer.builder(client).media(registry, fetcher)
          .attachments(TestMedia.attachments(temp.resolve("attachments"))).build().tools());
      all.add(TetherMcpServer.builder(client).channelMedia(ChannelMediaClient.of(client, "vm")).build().tools());
      all.add(TetherMcpServer.builder(client).attachments(new NoAttachments()).build().tools());
    } finally {
      store.close();
    }
    return all;
  }
}
