package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.images.FrameValidator;
import dev.tether.images.Images;
import dev.tether.llm.McpContent;
import dev.tether.llm.McpReadResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code tether_read}'s hot path: an {@code assistant.done} with four 5 MiB PNG images (read from
 * its wire bytes, as a poll hands it over) turned into MCP content ({@link McpReadResult#toContent},
 * which tether-mcp maps one for one to the SDK's {@code TextContent} and {@code ImageContent}: the
 * JSON text with {@code _mcp_index} stubs, then one image item per image). The base64 is already
 * in the frame, so the floor ({@code toContentFloor}) is copying it: one Latin-1 {@code String}
 * per image from the payload's bytes (the MCP SDK's {@code ImageContent} holds a {@code String}).
 * The frame is read as the server stores it ({@link FrameValidator#read}), so its image strings'
 * ends are known; {@code toContentUnproven} reads the same bytes with the codec alone.
 *
 * <pre>
 * ./mvnw -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar McpReadBenchmark -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class McpReadBenchmark {
  static final int IMAGE_BYTES = 5 << 20;

  Frame frame;
  Frame unproven;
  List<BenchImages.Span> spans;

  @Setup
  public void setUp() throws IOException {
    Random random = new Random(24);
    List<Image> images = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      images.add(Images.fromBytes(ClaudeRequestBenchmark.png(1920, 1080, IMAGE_BYTES, random), MediaType.PNG));
    }
    Frame built = Frames.assistantDone(new SessionKey("host", "default"), "host-1", "Here are the four charts.", images);
    byte[] wire = FrameCodec.standard().write(built);
    // as the server stores it: validated once, each image's data string already found
    frame = FrameValidator.standard().read(new ByteArrayInputStream(wire));
    unproven = FrameCodec.standard().read(wire);
    spans = BenchImages.dataSpans(frame.payload());
    List<McpContent> content = toContent();
    if (content.size() != 5 || !((McpContent.Image) content.get(4)).data().equals(images.get(3).data())) {
      throw new IllegalStateException("tether_read lost an image");
    }
  }

  @Benchmark
  public List<McpContent> toContent() {
    return new McpReadResult(List.of(frame), frame.seq() + 1, false).toContent();
  }

  /** The same bytes read by the codec alone: each image's string scanned again (as before). */
  @Benchmark
  public List<McpContent> toContentUnproven() {
    return new McpReadResult(List.of(unproven), unproven.seq() + 1, false).toContent();
  }

  @Benchmark
  public List<String> toContentFloor() {
    List<String> out = new ArrayList<>(spans.size());
    for (BenchImages.Span s : spans) {
      out.add(new String(s.array(), s.offset(), s.length(), StandardCharsets.ISO_8859_1));
    }
    return out;
  }
}
