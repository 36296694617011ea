package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The media and attachment tools, driven by the SDK's client over the stdio of a child server. */
class MediaToolsStdioTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @RegisterExtension
  static final ChildServerPerClass server = new ChildServerPerClass();

  @Test
  void listTools_offersTheMediaAndAttachmentTools() {
    List<String> names = server.client().listTools().block(ChildServer.TIMEOUT).tools().stream().map(Tool::name).toList();
    assertEquals(List.of("tether_send", "tether_read", "tether_send_stream", "tether_approvals", "tether_approve", "list_media", "fetch_media", "list_attachments",
        "read_attachment", "view_attachment"), names);
  }

  @Test
  void listMedia_showsPlaceholdersWithRefs() {
    String text = ChildServer.text(ok(server.call("list_media", Map.of())));
    assertTrue(text.contains("ref:" + TestMedia.PHOTO_REF) && text.contains("Beautiful sunset"), text);
    assertTrue(text.contains("ref:" + TestMedia.VOICE_REF), text);
  }

  @Test
  void fetchMedia_returnsASmallImageAsImageContent() {
    CallToolResult result = ok(server.call("fetch_media", Map.of("mediaRef", TestMedia.PHOTO_REF)));
    ImageContent image = assertInstanceOf(ImageContent.class, result.content().get(1));
    assertEquals("image/png", image.mimeType());
    assertEquals(TestMedia.PHOTO_BASE64, image.data());
  }

  @Test
  void fetchMedia_acceptsTheRefPrefixFromThePlaceholder() {
    CallToolResult result = ok(server.call("fetch_media", Map.of("mediaRef", "ref:" + TestMedia.PHOTO_REF)));
    assertInstanceOf(ImageContent.class, result.content().get(1));
  }

  @Test
  void fetchMedia_savesANonImageAndReturnsItsPath() throws Exception {
    String text = ChildServer.text(ok(server.call("fetch_media", Map.of("mediaRef", TestMedia.VOICE_REF))));
    String path = text.substring(text.indexOf(" to ") + 4, text.indexOf(" ("));
    assertEquals("OggS", Files.readString(Path.of(path)), text);
  }

  @Test
  void fetchMedia_unknownRef_isACodedError() throws Exception {
    assertError(server.call("fetch_media", Map.of("mediaRef", "tst_nothing")), "UNKNOWN_REF");
    assertError(server.call("fetch_media", Map.of()), "INVALID_ARGUMENT");
  }

  @Test
  void listAttachments_linesCarrySizeAndMimeType() {
    String text = ChildServer.text(ok(server.call("list_attachments", Map.of())));
    assertTrue(text.contains("- notes.txt (18 bytes, text/plain)"), text);
    assertTrue(text.contains("chart.png") && text.contains("image/png"), text);
  }

  @Test
  void readAttachment_readsTextInWindows() {
    String first = ChildServer.text(ok(server.call("read_attachment", Map.of("filename", "notes.txt"))));
    assertTrue(first.startsWith("line one\nl"), first);
    assertTrue(first.contains("read on with offset 10"), first);
    String rest = ChildServer.text(ok(server.call("read_attachment", Map.of("filename", "notes.txt", "offset", 10))));
    assertEquals("ine two\n", rest);
  }

  @Test
  void viewAttachment_returnsTheImage_andRefusesWhatIsNotOne() throws Exception {
    CallToolResult chart = ok(server.call("view_attachment", Map.of("filename", "chart.png")));
    assertEquals(TestMedia.PHOTO_BASE64, assertInstanceOf(ImageContent.class, chart.content().get(1)).data());

    assertError(server.call("view_attachment", Map.of("filename", "fake.png")), "MEDIA_TYPE_MISMATCH");
    assertError(server.call("view_attachment", Map.of("filename", "notes.txt")), "NOT_AN_IMAGE");
    assertError(server.call("read_attachment", Map.of("filename", "blob.bin")), "BINARY_ATTACHMENT");
    assertError(server.call("read_attachment", Map.of("filename", "../etc/passwd")), "UNKNOWN_ATTACHMENT");
    assertError(server.call("read_attachment", Map.of("filename", "notes.txt", "offset", -1)), "INVALID_ARGUMENT");
    assertError(server.call("view_attachment", Map.of("filename", "chart.png", "size", "big")), "INVALID_ARGUMENT");
  }

  private static CallToolResult ok(CallToolResult result) {
    assertFalse(result.isError(), ChildServer.text(result));
    return result;
  }

  private static void assertError(CallToolResult result, String code) throws Exception {
    assertTrue(result.isError(), ChildServer.text(result));
    JsonNode error = JSON.readTree(ChildServer.text(result)).get("error");
    assertEquals(code, error.get("code").asText(), error.toString());
  }
}
