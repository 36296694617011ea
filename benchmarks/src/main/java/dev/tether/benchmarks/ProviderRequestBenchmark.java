package dev.tether.benchmarks;

import dev.tether.api.Conversation;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.Payload;
import dev.tether.api.Role;
import dev.tether.api.SessionKey;
import dev.tether.api.Turn;
import dev.tether.images.FrameValidator;
import dev.tether.images.Images;
import dev.tether.llm.LlmRequest;
import dev.tether.llm.ProviderProfile;
import dev.tether.llm.RequestOptions;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A {@code user.message} with four 3 MiB PNG images (read from its wire bytes) turned into a Claude,
 * OpenAI Chat or Gemini request ({@code provider}): the payload's typed view, a one-turn
 * {@link Conversation} holding each image's base64 as it came ({@link ImageData#of(Image)}),
 * {@link LlmRequest#prepare} (every profile check) and {@link LlmRequest#writeTo} into a stream
 * that counts and discards. The frame is read as the server stores it, through {@link
 * FrameValidator#read}, so its images carry the validator's proof; {@code frameToRequestUnproven}
 * takes the same bytes read by the codec alone (the full checks, as before). 3 MiB keeps four images within every profile's limits (Anthropic's
 * portable 5 MB of base64 per image, Gemini's 20 MB in all). The base64 is already in the frame,
 * so the floor ({@code frameToRequestFloor}) copies it: into one {@code String} per image (the
 * form {@link ImageData} holds it in) and from there, through a 48 KiB buffer, into the same stream.
 *
 * <pre>
 * ./mvnw -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar ProviderRequestBenchmark -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class ProviderRequestBenchmark {
  static final int IMAGE_BYTES = 3 << 20;

  @Param({"claude", "openai", "gemini"})
  public String provider;

  Frame frame;
  Frame unproven;
  List<BenchImages.Span> spans;
  ProviderProfile profile;
  RequestOptions options;

  @Setup
  public void setUp() throws IOException {
    Random random = new Random(7);
    List<Image> images = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      images.add(Images.fromBytes(ClaudeRequestBenchmark.png(1920, 1080, IMAGE_BYTES, random), MediaType.PNG));
    }
    Frame built = Frames.userMessage(new SessionKey("host", "default"), "host-1",
        "[Alice]: What changed between these four charts?", images, null);
    byte[] wire = FrameCodec.standard().write(built);
    // as the server stores it (and the in-process agent reads it): validated once, images proven
    frame = FrameValidator.standard().read(new ByteArrayInputStream(wire));
    unproven = FrameCodec.standard().read(wire);
    spans = BenchImages.dataSpans(frame.payload());
    profile = switch (provider) {
      case "claude" -> ProviderProfile.anthropic();
      case "openai" -> ProviderProfile.openAiChat();
      case "gemini" -> ProviderProfile.gemini();
      default -> throw new IllegalArgumentException("provider must be claude, openai or gemini but was " + provider);
    };
    options = RequestOptions.defaults().withModel("model-1");
    long base64 = spans.stream().mapToLong(BenchImages.Span::length).sum();
    if (frameToRequest() < base64) {
      throw new IllegalStateException("the request is shorter than its images' base64");
    }
  }

  @Benchmark
  public long frameToRequest() throws IOException {
    return toRequest(frame);
  }

  /**
   * The same frame read by the codec alone (as an agent reads a poll over HTTP), so its images carry
   * no validator's proof and the profile checks each in full: the path before "validate once".
   */
  @Benchmark
  public long frameToRequestUnproven() throws IOException {
    return toRequest(unproven);
  }

  private long toRequest(Frame frame) throws IOException {
    Payload.UserMessage message = (Payload.UserMessage) frame.payloadView();
    List<Part> parts = new ArrayList<>(message.images().size() + 1);
    parts.add(new Part.Text(message.text()));
    for (Image image : message.images()) {
      parts.add(new Part.Image(image.mediaType(), ImageData.of(image)));
    }
    Conversation conversation = new Conversation("You are a careful analyst of charts.", List.of(new Turn(Role.USER, parts)));
    ClaudeRequestBenchmark.CountingSink sink = new ClaudeRequestBenchmark.CountingSink();
    LlmRequest.prepare(profile, conversation, options).writeTo(sink);
    return sink.count;
  }

  private static final int CHUNK = 3 * 16 * 1024;

  @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the Latin-1 copy
  @Benchmark
  public long frameToRequestFloor() {
    ClaudeRequestBenchmark.CountingSink sink = new ClaudeRequestBenchmark.CountingSink();
    byte[] buffer = new byte[CHUNK];
    for (BenchImages.Span s : spans) {
      String base64 = new String(s.array(), s.offset(), s.length(), StandardCharsets.ISO_8859_1);
      for (int off = 0; off < base64.length(); off += CHUNK) {
        int n = Math.min(CHUNK, base64.length() - off);
        base64.getBytes(off, off + n, buffer, 0);
        sink.write(buffer, 0, n);
      }
    }
    return sink.count;
  }

  /**
   * Not a floor: the payload's typed view alone (tether-api's {@code Frame.payloadView}), which
   * this path reads the images from, to show what it costs of the path.
   */
  @Benchmark
  public Object payloadViewOnly() {
    return frame.payloadView();
  }
}
