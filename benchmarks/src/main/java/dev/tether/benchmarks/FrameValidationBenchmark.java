package dev.tether.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Frames;
import dev.tether.api.FrameCodec;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.images.FrameValidator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
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
 * Validating a {@code user.message} frame that carries four 5 MiB PNG images (27.96 MB on the
 * wire) from its bytes, against two baselines in the same run:
 *
 * <ul>
 *   <li>{@code naive}: what a consumer typically writes: a Jackson tree of the whole frame, each
 *       image's data as a String, {@code java.util.Base64} decoding of each image, then the size
 *       and signature checks on the decoded bytes;
 *   <li>{@code plainLoop}: one loop that reads every byte once and does nothing else, the physical
 *       floor for any validator that looks at every byte.
 * </ul>
 *
 * <p>Targets: at least 1 GB/s of wire bytes, at least 3x {@code naive}, at most 3x
 * {@code plainLoop}, under 1 MiB allocated per validation ({@code gc.alloc.rate.norm}).
 *
 * <pre>
 * ./mvnw -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar FrameValidationBenchmark -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class FrameValidationBenchmark {
  static final int IMAGE_BYTES = 5 << 20;
  static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

  private final ObjectMapper mapper = new ObjectMapper();
  private final FrameValidator validator = FrameValidator.standard();
  byte[] wire;

  @Setup
  public void setUp() {
    Random random = new Random(42);
    List<Image> images = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      byte[] png = new byte[IMAGE_BYTES];
      random.nextBytes(png);
      System.arraycopy(PNG_SIGNATURE, 0, png, 0, PNG_SIGNATURE.length);
      images.add(new Image(MediaType.PNG, Base64.getEncoder().encodeToString(png)));
    }
    wire = FrameCodec.standard().write(Frames.hostUserMessage("bench", "Analyze these charts", images));
    validator.validate(wire); // the fixture itself must be valid
    byte[] corrupt = wire.clone();
    corrupt[corrupt.length / 2] = '!'; // inside the data of image 1 or 2
    try {
      validator.validate(corrupt);
      throw new AssertionError("the validator accepted a frame with a '!' in its base64");
    } catch (dev.tether.api.TetherException expected) {
      // the validator really looks at the bytes it is timed on
    }
    if (naive() != 4 * IMAGE_BYTES) {
      throw new AssertionError("naive baseline disagrees about the fixture");
    }
  }

  /** The bytes each operation processes, for GB/s: divide by the average time. */
  public int wireBytes() {
    return wire.length;
  }

  @Benchmark
  public byte[] validator() {
    validator.validate(wire);
    return wire;
  }

  @Benchmark
  public long naive() {
    try {
      JsonNode root = mapper.readTree(new String(wire, StandardCharsets.UTF_8));
      long total = 0;
      for (JsonNode image : root.path("payload").path("images")) {
        byte[] bytes = Base64.getDecoder().decode(image.path("data").asText());
        if (bytes.length > 10 << 20) {
          throw new IllegalStateException("image too large");
        }
        if (!"image/png".equals(image.path("media_type").asText()) || bytes[0] != (byte) 0x89 || bytes[1] != 'P') {
          throw new IllegalStateException("signature mismatch");
        }
        total += bytes.length;
      }
      if (total > 20 << 20) {
        throw new IllegalStateException("frame too large");
      }
      return total;
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Benchmark
  public int plainLoop() {
    byte[] bytes = wire;
    int acc = 0;
    for (int i = 0; i < bytes.length; i++) {
      acc += bytes[i];
    }
    return acc;
  }
}
