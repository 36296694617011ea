package dev.tether.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.store.MemoryTetherStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compiles and runs the README's "Embed the host daemon" and "Talk to a remote daemon" code, so it never rots. */
class ReadmeServerExamplesTest {
  @TempDir Path dir;

  @Test
  void embedServerExample_startsAndStops() throws Exception {
    assertEquals("listening on Unix", run("EmbedServer").trim());
  }

  @Test
  void remoteClientExample_sendsAndReadsOverTheSocket() throws Exception {
    HostAddress.Unix socket = new HostAddress.Unix(dir.resolve("t.sock"));
    try (TetherServer server = TetherServer.builder().listen(socket).store(MemoryTetherStore.create())
        .workspaces(dir.resolve("ws")).instance("vm1").start()) {
      assertEquals("sent seq 1, read 1 frame(s)", run("RemoteClient", socket.path().toString()).trim());
    }
  }

  private String run(String className, String... args) throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    Matcher m = Pattern.compile("<!-- example:" + className + "\\.java -->\\s*```java\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertTrue(m.find(), "README.md has no <!-- example:" + className + ".java --> block");
    Path out = Files.createDirectories(dir.resolve("classes-" + className));
    Path source = dir.resolve(className + ".java");
    Files.writeString(source, m.group(1));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status = javac.run(null, diagnostics, diagnostics,
        "-d", out.toString(), "-cp", System.getProperty("java.class.path"), source.toString());
    assertEquals(0, status, diagnostics.toString(StandardCharsets.UTF_8));
    PrintStream original = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader())) {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      Method main = loader.loadClass(className).getMethod("main", String[].class);
      main.invoke(null, (Object) args);
    } finally {
      System.setOut(original);
    }
    return printed.toString(StandardCharsets.UTF_8);
  }
}
