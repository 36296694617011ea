package dev.tether.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Conversation;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.Turn;
import dev.tether.llm.LlmRequest;
import dev.tether.llm.ProviderProfile;
import dev.tether.llm.RequestOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
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
 * Building a Claude Messages request with four 5 MiB PNG images held as decoded bytes, as
 * blob-backed session turns hold them (about 27.96 MB of JSON out), against a baseline in the same
 * run:
 *
 * <ul>
 *   <li>{@code adapter}: {@code LlmRequest.prepare} (every profile check, including signatures and
 *       pixel dimensions) and {@code writeTo}, base64-encoding each image once into the stream;
 *   <li>{@code mapTree}: what a consumer typically writes: a {@code Map} tree with each image as a
 *       base64 {@code String}, serialised with Jackson's {@code ObjectMapper}.
 * </ul>
 *
 * <p>Both write to a stream that counts and discards, so only building and encoding are measured.
 * Targets: at least 1 GB/s of output and at most 1.2x the output size allocated per request
 * ({@code gc.alloc.rate.norm}).
 *
 * <pre>{@code
 * ./mvnw -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar ClaudeRequestBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class ClaudeRequestBenchmark {
  private static final int IMAGE_BYTES = 5 << 20;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Conversation conversation;
  private RequestOptions options;
  private ProviderProfile profile;

  /** Counts what is written and keeps none of it. */
  static final class CountingSink extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }

  @Setup
  public void setUp() {
    Random random = new Random(42);
    List<Part.Image> images = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      images.add(new Part.Image(MediaType.PNG, ImageData.ofBytes(png(1920, 1080, IMAGE_BYTES, random))));
    }
    conversation = new Conversation("You are a careful analyst of charts.", List.of(
        Turn.user(new Part.Text("[Alice]: Compare these two charts"), images.get(0), images.get(1)),
        Turn.assistant(new Part.Text("The first rises, the second falls.")),
        Turn.user(new Part.Text("[Alice]: And these?"), images.get(2), images.get(3))));
    // 5 MiB decoded is 6.99 MB of base64: over the portable 5 MB, within the direct API's 10 MB.
    profile = ProviderProfile.anthropicDirectApi();
    options = RequestOptions.defaults().withModel("claude-sonnet-4-5");
  }

  /** A PNG signature and IHDR, then random bytes up to {@code size}. */
  static byte[] png(int width, int height, int size, Random random) {
    byte[] bytes = new byte[size];
    random.nextBytes(bytes);
    ByteBuffer b = ByteBuffer.wrap(bytes);
    b.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A}).putInt(13);
    b.put(new byte[] {'I', 'H', 'D', 'R'}).putInt(width).putInt(height).put(new byte[] {8, 6, 0, 0, 0});
    CRC32 crc = new CRC32();
    crc.update(bytes, 12, 17);
    b.putInt((int) crc.getValue());
    return bytes;
  }

  @Benchmark
  public long adapter() throws IOException {
    CountingSink sink = new CountingSink();
    LlmRequest.prepare(profile, conversation, options).writeTo(sink);
    return sink.count;
  }

  @Benchmark
  public long mapTree() throws IOException {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("model", options.model());
    body.put("max_tokens", options.maxTokens());
    body.put("system", conversation.systemPrompt());
    List<Object> messages = new ArrayList<>();
    for (Turn turn : conversation.turns()) {
      List<Object> content = new ArrayList<>();
      for (Part part : turn.parts()) {
        if (part instanceof Part.Text text) {
          content.add(Map.of("type", "text", "text", text.text()));
        } else if (part instanceof Part.Image image) {
          Map<String, Object> source = new LinkedHashMap<>();
          source.put("type", "base64");
          source.put("media_type", image.mediaType().mimeType());
          source.put("data", Base64.getEncoder().encodeToString(image.data().toByteArray()));
          content.add(Map.of("type", "image", "source", source));
        }
      }
      messages.add(Map.of("role", turn.role().name().toLowerCase(java.util.Locale.ROOT), "content", content));
    }
    body.put("messages", messages);
    CountingSink sink = new CountingSink();
    MAPPER.writeValue(sink, body);
    return sink.count;
  }
}
