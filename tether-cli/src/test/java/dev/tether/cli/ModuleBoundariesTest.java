package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The library modules' boundaries as a consumer meets them: a named module that requires every
 * tether library compiles against their exported API, and is refused by javac when it imports a
 * class of a package the library does not export (its {@code internal} packages). Compiled with
 * the JDK's compiler against the modules as this build produced them.
 */
class ModuleBoundariesTest {
  private static final String REQUIRES = """
      module consumer {
        requires dev.tether.api;
        requires dev.tether.images;
        requires dev.tether.client;
        requires dev.tether.sessions;
        requires dev.tether.media;
        requires dev.tether.llm;
        requires dev.tether.store;
        requires dev.tether.store.sqlite;
        requires dev.tether.telegram;
        requires dev.tether.chat;
        requires dev.tether.slack;
        requires dev.tether.whatsapp;
        requires dev.tether.coven;
        requires dev.tether.store.jetstream;
        requires dev.tether.server;
        requires dev.tether.server.jetstream;
        requires dev.tether.client.http;
        requires dev.tether.mcp;
        requires dev.tether.micrometer;
      }
      """;

  @TempDir Path dir;

  @Test
  void consumerModule_compilesAgainstExportedApi() throws IOException {
    List<Diagnostic<? extends JavaFileObject>> errors = compile("""
        package consumer;
        import dev.tether.api.Frame;
        import dev.tether.client.TetherClient;
        import dev.tether.images.FrameValidator;
        import dev.tether.llm.LlmRequest;
        import dev.tether.media.MediaRegistry;
        import dev.tether.sessions.FileBlobStore;
        import dev.tether.store.MemoryTetherStore;
        import dev.tether.store.sqlite.DurableTetherStore;
        import dev.tether.telegram.TelegramBridge;
        import dev.tether.chat.ChatSecret;
        import dev.tether.slack.SlackBridge;
        import dev.tether.whatsapp.WhatsAppBridge;
        import dev.tether.coven.CovenAgent;
        import dev.tether.store.jetstream.JetStreamTetherStore;
        import dev.tether.server.TetherServer;
        import dev.tether.server.jetstream.JetStreamShared;
        import dev.tether.client.HostAddress;
        import dev.tether.client.http.HttpTetherClient;
        import dev.tether.mcp.TetherMcpServer;
        import dev.tether.micrometer.TetherMeters;
        public class Use {
          // tether-micrometer requires Micrometer transitively: a MeterRegistry is usable without requiring it.
          io.micrometer.core.instrument.MeterRegistry registry;
          // tether-mcp requires the MCP SDK transitively: its types are usable without requiring it.
          io.modelcontextprotocol.server.McpAsyncServer server;
          Object[] all = {Frame.class, TetherClient.class, FrameValidator.class, LlmRequest.class,
              MediaRegistry.class, FileBlobStore.class, MemoryTetherStore.class, DurableTetherStore.class,
              TelegramBridge.class, CovenAgent.class, JetStreamTetherStore.class, TetherServer.class,
              HostAddress.class, HttpTetherClient.class, TetherMcpServer.class, TetherMeters.class,
              ChatSecret.class, SlackBridge.class, WhatsAppBridge.class};
          // tether-server-jetstream: the one call that shares everything (requires server and store transitively).
          TetherServer.Builder shared = TetherServer.builder().shared(JetStreamShared.on("nats://127.0.0.1:4222"));
        }
        """);
    assertEquals(List.of(), messages(errors));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "dev.tether.api.internal.ApiInternals",
      "dev.tether.images.internal.Signatures",
      "dev.tether.media.internal.MediaText",
      "dev.tether.store.internal.StoreInternals",
      "dev.tether.telegram.internal.BotApi",
      "dev.tether.slack.internal.SlackApi",
      "dev.tether.whatsapp.internal.GraphApi",
      "dev.tether.coven.internal.ReplyTranslator",
      "dev.tether.store.jetstream.internal.InstanceMirror",
      "dev.tether.server.internal.Daemon",
      "dev.tether.server.internal.TetherHandler",
      "dev.tether.client.http.HttpTransport"})
  void consumerModule_cannotImportNonExportedPackage(String internalClass) throws IOException {
    List<Diagnostic<? extends JavaFileObject>> errors = compile("""
        package consumer;
        import %s;
        public class Use {
          Object reached = %s.class;
        }
        """.formatted(internalClass, internalClass.substring(internalClass.lastIndexOf('.') + 1)));
    String text = String.join("\n", messages(errors));
    String pkg = internalClass.substring(0, internalClass.lastIndexOf('.'));
    assertTrue(text.contains("package " + pkg + " is not visible") || text.contains("does not export " + pkg)
        || text.contains("is not public in " + pkg),
        () -> "expected javac to refuse " + pkg + ", got: " + text);
  }

  private List<Diagnostic<? extends JavaFileObject>> compile(String source) throws IOException {
    Path src = Files.createDirectories(dir.resolve("src/consumer"));
    Files.writeString(dir.resolve("src/module-info.java"), REQUIRES);
    Files.writeString(src.resolve("Use.java"), source);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
      List<String> options = List.of("-d", dir.resolve("out").toString(), "--module-path", modulePath());
      boolean ok = javac.getTask(null, files, diagnostics, options, null,
          files.getJavaFileObjects(dir.resolve("src/module-info.java"), src.resolve("Use.java"))).call();
      List<Diagnostic<? extends JavaFileObject>> errors = diagnostics.getDiagnostics().stream()
          .filter(d -> d.getKind() == Diagnostic.Kind.ERROR).collect(Collectors.toList());
      assertEquals(ok, errors.isEmpty(), "javac's result and its diagnostics disagree");
      return errors;
    }
  }

  /** Jars of the named and automatic modules the tether modules require, by file name prefix. */
  private static final List<String> THIRD_PARTY_MODULES = List.of("jackson-core", "jackson-databind",
      "jackson-annotations", "caffeine", "sqlite-jdbc", "grpc-", "protobuf-java", "bcprov", "guava",
      "failureaccess", "jnats", "jetty-", "slf4j-api", "mcp-core", "mcp-json-jackson2", "reactor-core", "reactive-streams", "micrometer-core",
      "micrometer-commons", "micrometer-observation");

  /** The tether library modules of this build and the named modules they require. */
  private static String modulePath() {
    List<String> entries = new ArrayList<>();
    for (Class<?> inModule : List.of(dev.tether.api.Frame.class, dev.tether.images.FrameValidator.class,
        dev.tether.client.TetherClient.class, dev.tether.sessions.FileBlobStore.class,
        dev.tether.media.MediaRegistry.class, dev.tether.llm.LlmRequest.class, dev.tether.store.TetherStore.class,
        dev.tether.store.sqlite.DurableTetherStore.class, dev.tether.telegram.TelegramBridge.class,
        dev.tether.coven.CovenAgent.class, dev.tether.store.jetstream.JetStreamTetherStore.class,
        dev.tether.server.TetherServer.class, dev.tether.server.jetstream.JetStreamShared.class,
        dev.tether.client.http.HttpTetherClient.class,
        dev.tether.mcp.TetherMcpServer.class, dev.tether.micrometer.TetherMeters.class, dev.tether.chat.ChatSecret.class,
        dev.tether.slack.SlackBridge.class, dev.tether.whatsapp.WhatsAppBridge.class)) {
      entries.add(location(inModule));
    }
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String name = Path.of(entry).getFileName().toString();
      if (THIRD_PARTY_MODULES.stream().anyMatch(name::startsWith)) {
        entries.add(entry);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private static String location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> messages(List<Diagnostic<? extends JavaFileObject>> errors) {
    return errors.stream().map(d -> d.getMessage(null)).collect(Collectors.toList());
  }
}
