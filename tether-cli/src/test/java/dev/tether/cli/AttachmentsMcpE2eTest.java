package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.SessionKey;
import dev.tether.client.HostAddress;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.testing.Fixtures;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Session attachments end to end with real processes: a {@code tether serve} child, files stored
 * through its HTTP API, and {@code tether mcp} children driven by the official MCP SDK client:
 * {@code list_attachments} in the spec's line format, {@code read_attachment} in windows,
 * {@code view_attachment} as an image block byte-identical to the upload, and each refusal with
 * its code (binary, not an image, a declared type the bytes do not match, unknown names, another
 * session, a model without vision).
 */
class AttachmentsMcpE2eTest {
  @TempDir Path dir;

  @Test
  void listReadAndView_throughTetherMcp() throws Exception {
    Path socket = dir.resolve("tether.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--instance", "vm",
        "--workspaces", dir.resolve("ws").toString())) {
      serve.awaitStderr("listening on", 60_000);
      SessionKey session = SessionKey.host("s1");
      String code = "def hello():\n    return 'h\u00e9llo \uD83D\uDE00'\n";
      byte[] png = Fixtures.picture("png", 40, 30);
      try (HttpTetherClient host = HttpTetherClient.builder(HostAddress.parse("unix:" + socket)).build()) {
        host.putAttachment("vm", session, "hello.py", "text/x-python", code.getBytes(StandardCharsets.UTF_8)).get(30, TimeUnit.SECONDS);
        host.putAttachment("vm", session, "shot.png", "image/png", png).get(30, TimeUnit.SECONDS);
        host.putAttachment("vm", session, "liar.png", "image/png", Fixtures.picture("jpg", 8, 8)).get(30, TimeUnit.SECONDS);
      }
      Map<String, Object> s1 = Map.of("instance", "vm", "session_id", "s1");
      try (McpSdkChild mcp = McpSdkChild.start(dir, "--host", "unix:" + socket)) {
        List<String> tools = mcp.client.listTools().tools().stream().map(t -> t.name()).toList();
        assertTrue(tools.containsAll(List.of("tether_send", "tether_read", "list_attachments", "read_attachment", "view_attachment")),
            tools.toString());

        CallToolResult list = mcp.call("list_attachments", s1);
        assertFalse(list.isError(), list.toString());
        assertEquals("- hello.py (" + code.getBytes(StandardCharsets.UTF_8).length + " bytes, text/x-python)\n"
            + "- shot.png (" + png.length + " bytes, image/png)\n"
            + "- liar.png (" + Fixtures.picture("jpg", 8, 8).length + " bytes, image/png)", McpSdkChild.text(list));

        CallToolResult whole = mcp.call("read_attachment", with(s1, "filename", "hello.py"));
        assertFalse(whole.isError(), whole.toString());
        assertEquals(code, McpSdkChild.text(whole));
        CallToolResult window = mcp.call("read_attachment", with(with(s1, "filename", "hello.py"), "offset", 4, "limit", 5));
        int total = code.codePointCount(0, code.length());
        assertEquals("hello\n(" + (total - 9) + " more characters in hello.py; read on with offset 9)", McpSdkChild.text(window));

        CallToolResult view = mcp.call("view_attachment", with(s1, "filename", "shot.png"));
        assertFalse(view.isError(), view.toString());
        assertArrayEquals(png, McpSdkChild.image(view));
        assertEquals("image/png", McpSdkChild.imageType(view));

        assertError("BINARY_ATTACHMENT", mcp.call("read_attachment", with(s1, "filename", "shot.png")));
        assertError("NOT_AN_IMAGE", mcp.call("view_attachment", with(s1, "filename", "hello.py")));
        assertError("MEDIA_TYPE_MISMATCH", mcp.call("view_attachment", with(s1, "filename", "liar.png")));
        assertError("UNKNOWN_ATTACHMENT", mcp.call("read_attachment", with(s1, "filename", "../hello.py")));
        assertError("UNKNOWN_ATTACHMENT", mcp.call("read_attachment", Map.of("instance", "vm", "session_id", "s1",
            "channel", "telegram", "filename", "hello.py")));
        assertError("INSTANCE_NOT_FOUND", mcp.call("list_attachments", Map.of("instance", "nope", "session_id", "s1")));
        assertEquals("No attachments in session host:other of instance 'vm'.",
            McpSdkChild.text(mcp.call("list_attachments", Map.of("instance", "vm", "session_id", "other"))));
      }
      try (McpSdkChild blind = McpSdkChild.start(dir, "--host", "unix:" + socket, "--no-vision")) {
        assertError("VISION_UNSUPPORTED", blind.call("view_attachment", with(s1, "filename", "shot.png")));
        // No --instance: its default ('default') is not registered on this host.
        assertError("INSTANCE_NOT_FOUND", blind.call("list_attachments", Map.of()));
      }
      // As the attachment spec shows the tools: no instance (tether mcp --instance), no session (default).
      try (HttpTetherClient host = HttpTetherClient.builder(HostAddress.parse("unix:" + socket)).build()) {
        host.putAttachment("vm", SessionKey.host("default"), "notes.txt", "text/plain", "spec".getBytes(StandardCharsets.UTF_8))
            .get(30, TimeUnit.SECONDS);
      }
      try (McpSdkChild spec = McpSdkChild.start(dir, "--host", "unix:" + socket, "--instance", "vm")) {
        CallToolResult bare = spec.call("list_attachments", Map.of());
        assertFalse(bare.isError(), bare.toString());
        assertEquals("- notes.txt (4 bytes, text/plain)", McpSdkChild.text(bare));
        assertEquals("spec", McpSdkChild.text(spec.call("read_attachment", Map.of("filename", "notes.txt"))));
        assertEquals("- hello.py", McpSdkChild.text(spec.call("list_attachments", Map.of("session_id", "s1"))).split(" \\(")[0]);
        assertEquals("notes.txt:1: spec\n1 matching line in 1 file (of 1 searched)",
            McpSdkChild.text(spec.call("grep_attachment", Map.of("pattern", "sp.c"))));
        String grep = McpSdkChild.text(spec.call("grep_attachment", Map.of("session_id", "s1", "pattern", "(?i)HELLO")));
        assertEquals("hello.py:1: def hello():\n1 matching line in 1 file (of 3 searched);"
            + " skipped shot.png (binary), liar.png (binary)", grep); // line 2 says h\u00e9llo
        assertError("INVALID_ARGUMENT", spec.call("grep_attachment", Map.of("pattern", "(unclosed")));
        assertError("UNKNOWN_ATTACHMENT", spec.call("grep_attachment", Map.of("pattern", "x", "filename", "nope.txt")));
      }
    }
  }

  private static Map<String, Object> with(Map<String, Object> base, Object... more) {
    java.util.LinkedHashMap<String, Object> m = new java.util.LinkedHashMap<>(base);
    for (int i = 0; i < more.length; i += 2) {
      m.put((String) more[i], more[i + 1]);
    }
    return m;
  }

  private static void assertError(String code, CallToolResult result) {
    assertTrue(result.isError(), result.toString());
    String text = McpSdkChild.text(result);
    assertTrue(text.contains("\"code\":\"" + code + "\""), text);
  }
}
