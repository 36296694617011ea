package dev.tether.cli;

import dev.tether.server.testing.Fixtures;
import dev.tether.client.TokenFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/** validate, convert, serve's refusals and --help, run in-process with stdout/stderr captured. */
@ResourceLock("System.out")
class CommandsTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private PrintStream oldErr;
  private InputStream oldIn;

  @BeforeEach
  void capture() {
    oldOut = System.out;
    oldErr = System.err;
    oldIn = System.in;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(oldOut);
    System.setErr(oldErr);
    System.setIn(oldIn);
  }

  private int run(String... args) {
    return Main.run(args);
  }

  /** What the command wrote to stderr, without Jazzer's "INFO: Instrumented" lines (the fuzz tests share the JVM). */
  private String stderr() {
    return err.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("INFO: Instrumented"))
        .map(l -> l + "\n").collect(java.util.stream.Collectors.joining());
  }

  private Path file(String name, byte[] content) throws Exception {
    Path p = dir.resolve(name);
    Files.write(p, content);
    return p;
  }

  @Test
  void validate_validFrame_exit0() throws Exception {
    Path f = file("ok.json", Fixtures.wire(Fixtures.userMessage("s", "hi", Fixtures.png(3, 3))));
    assertEquals(0, run("validate", f.toString()), stderr());
    assertEquals("valid: user.message frame with 1 image", out.toString(StandardCharsets.UTF_8).strip(), "a result goes to stdout");
  }

  @Test
  void validate_mismatchedImage_exit1WithCodeIndexAndSentence() throws Exception {
    Image lie = new Image(MediaType.GIF, Fixtures.png(3, 3).data());
    Path f = file("bad.json", Fixtures.wire(Fixtures.userMessage("s", "hi", Fixtures.png(2, 2), lie)));
    assertEquals(ValidateCommand.INVALID, run("validate", f.toString()));
    assertTrue(stderr().startsWith("MEDIA_TYPE_MISMATCH (image 1): "), stderr());
  }

  @Test
  void validate_hostileInputs_exit1WithACode() throws Exception {
    for (String bad : List.of("", "{", "[]", "{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"x\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"data:image/png;base64,AAAA\"}]}}")) {
      err.reset();
      assertEquals(ValidateCommand.INVALID, run("validate", file("h.json", bad.getBytes(StandardCharsets.UTF_8)).toString()), bad);
      assertTrue(stderr().matches("(?s)[A-Z_]+( \\(image \\d+\\))?: .+"), stderr());
    }
  }

  @Test
  void validate_readsStandardInput() {
    System.setIn(new ByteArrayInputStream(Fixtures.utf8("{\"v\":1,\"type\":\"assistant.delta\",\"payload\":{\"text\":\"x\",\"images\":[]}}")));
    assertEquals(ValidateCommand.INVALID, run("validate", "-"));
    assertTrue(stderr().startsWith("IMAGES_NOT_ALLOWED: "), stderr());
  }

  @Test
  void validate_missingFile_exit2() {
    assertEquals(ValidateCommand.UNREADABLE, run("validate", dir.resolve("nope.json").toString()));
    assertTrue(stderr().contains("no such file"), stderr());
  }

  @Test
  void convert_blobRefs_areReadFromTheWorkspace_andRefusedWithoutIt() throws Exception {
    byte[] png = Fixtures.picture("png", 6, 4);
    Path ws = dir.resolve("ws");
    String key = dev.tether.api.ImageRefs.keyFor(png, dev.tether.api.MediaType.PNG);
    java.nio.file.Files.createDirectories(ws.resolve(".aegis/blobs"));
    java.nio.file.Files.write(ws.resolve(".aegis/blobs").resolve(key), png);
    Path f = file("ref.json", Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},"
        + "\"payload\":{\"text\":\"what is it?\",\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + key + "\",\"size\":" + png.length + "}]}}"));
    assertEquals(2, run("convert", "--to", "claude", f.toString()));
    assertTrue(stderr().contains("--workspace"), stderr());
    assertEquals(0, run("convert", "--to", "claude", "--workspace", ws.toString(), f.toString()), stderr());
    JsonNode block = Json.MAPPER.readTree(out.toByteArray()).path("messages").path(0).path("content").path(0);
    assertEquals(java.util.Base64.getEncoder().encodeToString(png), block.path("source").path("data").asText());
  }

  @Test
  void convert_eachProvider_printsItsImageBlock() throws Exception {
    Image png = Fixtures.png(6, 4);
    Path f = file("m.json", Fixtures.wire(Fixtures.userMessage("s", "what is it?", png)));
    assertEquals(0, run("convert", "--to", "claude", f.toString()), stderr());
    JsonNode claude = Json.MAPPER.readTree(out.toByteArray());
    JsonNode block = claude.path("messages").path(0).path("content").path(0);
    assertEquals("image", block.path("type").asText(), claude.toString());
    assertEquals(png.data(), block.path("source").path("data").asText());

    out.reset();
    assertEquals(0, run("convert", "--to", "openai-chat", f.toString()), stderr());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"url\":\"data:image/png;base64," + png.data()), out.toString());
    out.reset();
    assertEquals(0, run("convert", "--to", "openai-responses", f.toString()), stderr());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"input_image\""));
    out.reset();
    assertEquals(0, run("convert", "--to", "ollama", f.toString()), stderr());
    assertEquals(png.data(), Json.MAPPER.readTree(out.toByteArray()).path("messages").path(0).path("images").path(0).asText());
    out.reset();
    assertEquals(0, run("convert", "--to", "gemini", "--model", "x", f.toString()), stderr());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"inline_data\""), out.toString());
  }

  @Test
  void convert_mcp_givesTextWithStubsThenImages() throws Exception {
    Image png = Fixtures.png(6, 4);
    Frame done = Frames.assistantDone(SessionKey.host("s"), "host-1", "chart", List.of(png));
    Path f = file("d.json", Fixtures.wire(done));
    assertEquals(0, run("convert", "--to", "mcp", f.toString()), stderr());
    JsonNode content = Json.MAPPER.readTree(out.toByteArray()).path("content");
    assertEquals("text", content.path(0).path("type").asText());
    assertTrue(content.path(0).path("text").asText().contains("\"_mcp_index\":0"), content.toString());
    assertEquals("image", content.path(1).path("type").asText());
    assertEquals(png.data(), content.path(1).path("data").asText());
  }

  @Test
  void convert_gifToGemini_failsNamingTheRule_unlessFitted() throws Exception {
    Image gif = dev.tether.images.Images.fromBytes(Fixtures.picture("gif", 5, 5), MediaType.GIF);
    Path f = file("g.json", Fixtures.wire(Fixtures.userMessage("s", "x", gif)));
    assertEquals(1, run("convert", "--to", "gemini", f.toString()));
    assertTrue(stderr().toLowerCase().contains("gif"), stderr());
    out.reset();
    assertEquals(0, run("convert", "--to", "gemini", "--fit", f.toString()), stderr());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"mime_type\":\"image/png\""), out.toString());
  }

  @Test
  void convert_unknownTargetOrFrameType_isRefused() throws Exception {
    Path f = file("m.json", Fixtures.wire(Fixtures.userMessage("s", "x")));
    assertEquals(2, run("convert", "--to", "bard", f.toString()));
    assertTrue(stderr().contains("--to must be one of"), stderr());
    Path p = file("p.json", Fixtures.wire(Frames.presence(SessionKey.host("s"), "m", "thinking")));
    assertEquals(1, run("convert", "--to", "claude", p.toString()));
    assertTrue(stderr().contains("status.presence"), stderr());
  }

  @Test
  void serve_nonLoopbackListen_isRefusedUnlessForced() {
    assertEquals(2, run("serve", "--listen", "0.0.0.0:0", "--token-file", dir.resolve("tok").toString()));
    assertTrue(stderr().contains("refusing to listen on non-loopback"), stderr());
    assertTrue(!Files.exists(dir.resolve("tok")), "nothing is created for a refused listen");
  }

  @Test
  void tokenFile_isCreatedOwnerOnly_andReadBack() throws Exception {
    Path tok = dir.resolve("sub/token");
    String token = TokenFile.loadOrCreate(tok);
    assertEquals(64, token.length());
    assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(tok)));
    assertEquals(token, TokenFile.loadOrCreate(tok));
  }

  @Test
  void everyCommand_hasHelp() {
    for (String cmd : List.of("serve", "agent", "mcp", "validate", "convert")) {
      out.reset();
      assertEquals(0, run(cmd, "--help"), cmd);
      assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("Usage: tether " + cmd), out.toString());
    }
  }

  @Test
  void noCommand_isAUsageError_namingEveryCommand() {
    assertEquals(2, run());
    assertTrue(stderr().contains("Missing a command: serve, agent, mcp, validate, convert, telegram, slack, whatsapp, coven or token"), stderr());
  }

  @Test
  void unknownFlag_printsTheErrorAndAHint_notTheWholeUsage() {
    assertEquals(2, run("serve", "--no-such-flag"));
    List<String> lines = stderr().strip().lines().toList();
    assertEquals(2, lines.size(), stderr());
    assertTrue(lines.get(0).contains("--no-such-flag"), stderr());
    assertEquals("Try 'tether serve --help' for more information.", lines.get(1));
  }

  @Test
  void topLevelHelp_listsEveryCommandInWholeSentences() {
    assertEquals(0, run("--help"));
    String help = out.toString(StandardCharsets.UTF_8);
    for (String cmd : List.of("serve", "agent", "mcp", "validate", "convert", "telegram", "coven", "token")) {
      // The list shows each command's first description line, on one line of the usage.
      String line = help.lines().filter(l -> l.strip().startsWith(cmd + " ")).findFirst().orElseThrow(() -> new AssertionError(cmd + " in " + help));
      assertTrue(line.strip().endsWith("."), "the summary of " + cmd + " is one whole sentence: " + line);
    }
  }

  @Test
  void convertToClaude_namesTheDefaultModel_andMcpHelpShowsTheLauncher() throws Exception {
    Path f = file("ok.json", Fixtures.wire(Fixtures.userMessage("s", "hi")));
    assertEquals(0, run("convert", "--to", "claude", f.toString()), stderr());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"model\":\"claude-sonnet-4-5\""), out.toString());
    out.reset();
    assertEquals(0, run("convert", "--to", "claude", "--model", "claude-opus-4-1", f.toString()), stderr());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"model\":\"claude-opus-4-1\""), out.toString());
    out.reset();
    assertEquals(0, run("mcp", "--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("tether-cli/target/tether mcp"), out.toString());
  }

  @Test
  void covenWithAMissingCaFile_isOneLineNamingTheFlag_exit1() {
    int status = run("coven", "--gateway", "127.0.0.1:1", "--tls-ca", dir.resolve("wrong").resolve("ca.pem").toString(),
        "--agent-id-file", dir.resolve("agent-id").toString());
    String e = stderr();
    assertEquals(1, status, e);
    assertEquals(1, e.strip().lines().count(), "one line, no stack trace: " + e);
    assertTrue(e.startsWith("tether coven: --tls-ca " + dir.resolve("wrong")), e);
    assertFalse(e.contains("\tat "), e);
  }

  @Test
  void tokenListAgainstNoHost_isOneLineSayingSo_exit1() {
    int status = run("token", "list", "--host", "unix:" + dir.resolve("none.sock"));
    String e = stderr();
    assertEquals(1, status, e);
    assertEquals(1, e.strip().lines().count(), "one line, no stack trace: " + e);
    assertTrue(e.startsWith("tether token: no tether host is listening on unix:"), e);
  }

  private void assertOneLineUsageError(int status, String... mustContain) {
    String e = stderr();
    assertEquals(2, status, e);
    assertEquals(1, e.strip().lines().count(), "one line, no stack trace: " + e);
    assertFalse(e.contains("Exception") || e.contains("\tat "), e);
    for (String s : mustContain) {
      assertTrue(e.contains(s), "'" + s + "' in: " + e);
    }
  }

  private Path token(String name, String content, String mode) throws Exception {
    Path p = file(name, content.getBytes(StandardCharsets.UTF_8));
    Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString(mode));
    return p;
  }

  @Test
  void serve_listenWithoutHost_oneLineExit2() {
    assertOneLineUsageError(run("serve", "--listen", ":18731", "--token-file", dir.resolve("t").toString()),
        "tether serve: --listen needs HOST:PORT", "':18731'");
  }

  @Test
  void serve_listenPortOutOfRange_oneLineExit2() {
    assertOneLineUsageError(run("serve", "--listen", "127.0.0.1:99999", "--token-file", dir.resolve("t").toString()),
        "--listen", "99999");
  }

  @Test
  void serve_listenWithAPath_oneLineExit2PointingAtSocket() {
    assertOneLineUsageError(run("serve", "--listen", dir.resolve("x.sock").toString()), "--socket");
  }

  @Test
  void serve_emptyTokenFile_oneLineExit2SayingHowToFix() throws Exception {
    Path t = token("empty", "", "rw-------");
    assertOneLineUsageError(run("serve", "--listen", "127.0.0.1:0", "--token-file", t.toString()), "no token", "Delete the file");
  }

  @Test
  void serve_directoryAsTokenFile_oneLineExit2() {
    assertOneLineUsageError(run("serve", "--listen", "127.0.0.1:0", "--token-file", dir.toString()), "is a directory");
  }

  @Test
  void serve_tokenFileReadableByGroup_refusedWithChmodHint() throws Exception {
    Path t = token("shared", "a".repeat(64), "rw-r-----");
    assertOneLineUsageError(run("serve", "--listen", "127.0.0.1:0", "--token-file", t.toString()), "chmod 600 " + t);
  }

  @Test
  void serve_tokenShorterThan32Bytes_refusedWithRegenerateHint() throws Exception {
    Path t = token("short", "s3cret\n", "rw-------");
    assertOneLineUsageError(run("serve", "--listen", "127.0.0.1:0", "--token-file", t.toString()), "only 6 bytes", "at least 32");
  }

  @Test
  void tokens_exactly32Bytes_ownerOnly_isAccepted() throws Exception {
    Path t = token("ok", "b".repeat(32) + "\n", "rw-------");
    assertEquals("b".repeat(32), TokenFile.read(t));
  }

  @Test
  void mcp_missingTokenFileForTcpHost_oneLineExit2() {
    assertOneLineUsageError(run("mcp", "--host", "http://127.0.0.1:1", "--token-file", dir.resolve("none").toString()),
        "tether mcp:", "none");
  }

  @Test
  void agent_hostWithBadPort_oneLineExit2() {
    assertOneLineUsageError(run("agent", "--host", "127.0.0.1:99999"), "99999");
  }

  @Test
  void serve_socketPathIsARegularFile_refusedAndTheFileKept() throws Exception {
    Path f = file("notes.txt", "precious".getBytes(StandardCharsets.UTF_8));
    assertEquals(1, run("serve", "--socket", f.toString()));
    assertTrue(stderr().contains("is not a socket"), stderr());
    assertEquals("precious", Files.readString(f));
  }

  @Test
  void version_isTheProjectVersionFromTheBuild() throws Exception {
    assertEquals(0, run("-V"));
    String pom = Files.readString(Path.of("pom.xml"));
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("<parent>.*?<version>([^<]+)</version>", java.util.regex.Pattern.DOTALL).matcher(pom);
    assertTrue(m.find());
    assertEquals("tether " + m.group(1), out.toString(StandardCharsets.UTF_8).strip());
  }

  @Test
  void serve_badSizeFlag_exit2NamingTheForms() {
    assertEquals(2, run("serve", "--store-max-bytes", "10MB"));
    assertTrue(stderr().contains("'10MB'") && stderr().contains("KiB, MiB or GiB"), stderr());
    assertFalse(stderr().contains("Exception"), stderr());
  }

  @Test
  void serve_zeroInstances_oneLineExit2() {
    assertOneLineUsageError(run("serve", "--max-instances", "0", "--socket", dir.resolve("s.sock").toString()),
        "--max-instances must be at least 1");
  }

  @Test
  void mcp_hostWithAnUnknownScheme_isRefusedAtStartInOneLine() {
    assertEquals(2, run("mcp", "--host", "https://127.0.0.1:8731"));
    String err = stderr().strip();
    assertFalse(err.contains("\n"), err);
    assertTrue(err.startsWith("tether mcp: --host address scheme 'https' is not supported"), err);
  }
}
