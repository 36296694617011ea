package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import dev.tether.api.Frame;
import java.io.ByteArrayOutputStream;
import java.io.File;
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

/** Compiles and runs the example in the README, so that it can never rot. */
class ReadmeExampleTest {
  private static final Pattern EXAMPLE =
      Pattern.compile("<!-- example:(\\w+)\\.java -->\\s*```java\\n(.*?)```", Pattern.DOTALL);

  @Test
  void readmeExample_compilesAndRuns(@TempDir Path dir) throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    Matcher m = EXAMPLE.matcher(readme);
    assertTrue(m.find(), "README.md has no <!-- example:Name.java --> block");
    String className = m.group(1);
    Path source = dir.resolve(className + ".java");
    Files.writeString(source, m.group(2));

    String classpath = String.join(File.pathSeparator,
        location(Frame.class), location(FrameValidator.class), location(JsonFactory.class));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status = javac.run(null, diagnostics, diagnostics,
        "-d", dir.toString(), "-cp", classpath, source.toString());
    assertEquals(0, status, diagnostics.toString(StandardCharsets.UTF_8));

    Path png = dir.resolve("chart.png");
    Files.write(png, TestPngs.png(16, 9));
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      Method main = loader.loadClass(className).getMethod("main", String[].class);
      main.invoke(null, (Object) new String[] {png.toString()});
    } finally {
      System.setOut(original);
    }
    assertEquals("What does this chart show? (1 image)", out.toString(StandardCharsets.UTF_8).trim());
  }

  private static String location(Class<?> type) throws Exception {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /** Real PNGs from ImageIO. */
  static final class TestPngs {
    static byte[] png(int width, int height) throws Exception {
      java.awt.image.BufferedImage image =
          new java.awt.image.BufferedImage(width, height, java.awt.image.BufferedImage.TYPE_INT_RGB);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      javax.imageio.ImageIO.write(image, "png", out);
      return out.toByteArray();
    }
  }
}
