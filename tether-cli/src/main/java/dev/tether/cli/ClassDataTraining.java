package dev.tether.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * The build's training runs for the launcher's class-data archives: runs, in one JVM, what the
 * commands a host agent spawns load at start, so that {@code -XX:DumpLoadedClassList} lists those
 * classes. With the argument {@code oneshot} only {@code validate} and {@code convert} of a frame
 * with an image (their archive, {@code tether.oneshot.jsa}, stays small, which they feel: mapping
 * the full one cost them an eighth of their start-up); without it those and {@code mcp} answering
 * {@code initialize} and {@code tools/list} ({@code tether.jsa}, for every other command). Not a
 * command; the build runs it as
 * {@code java -XX:DumpLoadedClassList=tether.classlist -cp tether dev.tether.cli.ClassDataTraining},
 * then archives the list with {@code java -Xshare:dump -XX:SharedClassListFile=tether.classlist
 * -XX:SharedArchiveFile=tether.jsa -cp tether}. Failures are reported and ignored: a missing
 * archive only costs start-up time.
 */
final class ClassDataTraining {
  /** A 1x1 PNG: enough for the image paths to load their classes. */
  private static final String PNG =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

  private ClassDataTraining() {}

  public static void main(String[] args) throws IOException {
    Path dir = Files.createTempDirectory("tether-cds");
    Path frame = dir.resolve("frame.json");
    Files.writeString(frame, "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"cli\",\"id\":\"s\"},"
        + "\"msg_id\":\"m\",\"payload\":{\"text\":\"hi\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + PNG + "\"}]}}");
    Base64.getDecoder().decode(PNG);
    Main.run("validate", frame.toString());
    for (String to : new String[] {"claude", "openai-chat", "gemini", "mcp"}) {
      Main.run("convert", "--to", to, frame.toString());
    }
    if (!(args.length > 0 && args[0].equals("oneshot"))) {
      trainMcp(dir);
    }
    Files.deleteIfExists(frame);
    Files.deleteIfExists(dir);
  }

  /** {@code tether mcp} against a host that is not there: the MCP handshake needs no host. */
  private static void trainMcp(Path dir) {
    String session = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"training\",\"version\":\"1\"}}}\n"
        + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
        + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n";
    InputStream in = System.in;
    PrintStream out = System.out;
    try {
      System.setIn(new ByteArrayInputStream(session.getBytes(StandardCharsets.UTF_8)));
      Main.run("mcp", "--host", "unix:" + dir.resolve("absent.sock"));
    } finally {
      System.setIn(in);
      System.setOut(out);
    }
  }
}
