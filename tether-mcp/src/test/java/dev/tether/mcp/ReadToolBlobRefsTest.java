package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.ImageRefs;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.api.blobs.BlobKey;
import dev.tether.sessions.FileBlobStore;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tether_read} in-process shows an image whichever form was stored (issue 14): a frame
 * whose image is a {@code {"blob": key}} ref in a real blob directory reads back as MCP image
 * content, through the blob store given to the {@link StoreTetherClient}.
 */
class ReadToolBlobRefsTest {
  private static final String VM = "vm1";
  private static final SessionKey SESSION = SessionKey.host("s");

  @TempDir Path dir;
  private final MemoryTetherStore store = MemoryTetherStore.create();

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void read_ofAFrameStoredWithABlobRef_showsTheImage_asInlineWouldHave() throws Exception {
    FileBlobStore blobs = FileBlobStore.open(dir.resolve("blobs"));
    Image png = new Image(MediaType.PNG, TestImages.base64("png", 6, 4, Color.RED));
    Frame inline = Frames.assistantDone(SESSION, "host-1", "here it is", List.of(png));
    store.append(VM, ImageRefs.toRefs(inline, (bytes, type) -> blobs.put(bytes, type).fileName()));
    assertTrue(ImageRefs.hasRefs(store.retained(VM).get(0)), "the ring holds the ref, not the bytes");
    ReadTool tool = new ReadTool(StoreTetherClient.builder(store).blobs(instance -> blobs).build());

    CallToolResult result = tool.call(Map.of("instance", VM, "session_id", "s")).get();

    assertFalse(result.isError());
    ImageContent image = (ImageContent) result.content().get(1);
    assertEquals("image/png", image.mimeType());
    assertEquals(png.data(), image.data());
    String text = ((TextContent) result.content().get(0)).text();
    assertTrue(text.contains("{\"_mcp_index\":1}") || text.contains("_mcp_index"), text);
  }

  @Test
  void read_ofARefWhoseBlobIsGone_returnsTheRefInTheText_notAnError() throws Exception {
    FileBlobStore blobs = FileBlobStore.open(dir.resolve("blobs"));
    Image png = new Image(MediaType.PNG, TestImages.base64("png", 6, 4, Color.BLUE));
    String[] key = new String[1];
    store.append(VM, ImageRefs.toRefs(Frames.assistantDone(SESSION, "host-1", "gone", List.of(png)),
        (bytes, type) -> key[0] = blobs.put(bytes, type).fileName()));
    Files.delete(blobs.path(BlobKey.of(key[0])));
    ReadTool tool = new ReadTool(StoreTetherClient.builder(store).blobs(instance -> blobs).build());

    CallToolResult result = tool.call(Map.of("instance", VM, "session_id", "s")).get();

    assertFalse(result.isError());
    assertEquals(1, result.content().size(), "no image item for a blob that is gone");
    assertTrue(((TextContent) result.content().get(0)).text().contains(key[0]), "the ref is shown so it can be reported");
  }
}
