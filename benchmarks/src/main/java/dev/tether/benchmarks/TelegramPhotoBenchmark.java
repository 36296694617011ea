package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.InlineAnswer;
import dev.tether.api.InlineImage;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.chat.AnswerImages;
import dev.tether.images.FrameValidator;
import dev.tether.images.Images;
import dev.tether.telegram.TelegramChat;
import dev.tether.telegram.internal.PhotoUpload;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
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
 * The Telegram bridge's egress of an answer with four 5 MiB PNG images (an {@code assistant.done}
 * read from its wire bytes): the payload read as the bridge's egress reads it (text and each
 * image's base64 left in the payload's bytes, {@code InlineAnswer.read}), each image checked
 * against the bridge's limits and decoded from those bytes into its {@code sendPhoto} multipart body
 * ({@link AnswerImages}, {@link PhotoUpload}), as the egress does before each upload. The frame
 * is read as the server stores it ({@link FrameValidator#read}: images proven);
 * {@code answerToUploadsUnproven} reads the same bytes with the codec alone (full checks). The floor ({@code answerToUploadsFloor}) is one JDK
 * base64 decode of each image from the payload's bytes.
 *
 * <pre>
 * ./mvnw -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar TelegramPhotoBenchmark -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class TelegramPhotoBenchmark {
  static final int IMAGE_BYTES = 5 << 20;

  private final TelegramChat chat = TelegramChat.of(12345);
  Frame frame;
  Frame unproven;
  List<BenchImages.Span> spans;

  @Setup
  public void setUp() throws IOException {
    Random random = new Random(11);
    List<Image> images = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      images.add(Images.fromBytes(ClaudeRequestBenchmark.png(1920, 1080, IMAGE_BYTES, random), MediaType.PNG));
    }
    Frame built = Frames.assistantDone(new SessionKey(TelegramChat.CHANNEL, chat.sessionId()), "host-1",
        "Here are the four charts.", images);
    byte[] wire = FrameCodec.standard().write(built);
    // as the server stores it: validated once, images proven
    frame = FrameValidator.standard().read(new ByteArrayInputStream(wire));
    unproven = FrameCodec.standard().read(wire);
    spans = BenchImages.dataSpans(frame.payload());
    List<PhotoUpload> uploads = answerToUploads();
    if (uploads.size() != 4 || !uploads.get(3).method().equals("sendPhoto") || uploads.get(3).body().length() < IMAGE_BYTES) {
      throw new IllegalStateException("the bridge did not build four sendPhoto uploads");
    }
  }

  @Benchmark
  public List<PhotoUpload> answerToUploads() {
    return uploads(frame);
  }

  /** The same bytes read by the codec alone: no validator's proof, every image checked in full (as before). */
  @Benchmark
  public List<PhotoUpload> answerToUploadsUnproven() {
    return uploads(unproven);
  }

  private List<PhotoUpload> uploads(Frame frame) {
    InlineAnswer done = InlineAnswer.read(frame);
    List<PhotoUpload> uploads = new ArrayList<>(done.images().size());
    for (int i = 0; i < done.images().size(); i++) {
      InlineImage image = done.images().get(i);
      AnswerImages.check(image, Limits.defaults());
      uploads.add(PhotoUpload.of(chat, image, i, i == done.images().size() - 1 ? done.text() : null));
    }
    return uploads;
  }

  @Benchmark
  public List<ByteBuffer> answerToUploadsFloor() {
    List<ByteBuffer> out = new ArrayList<>(spans.size());
    for (BenchImages.Span s : spans) {
      out.add(Base64.getDecoder().decode(ByteBuffer.wrap(s.array(), s.offset(), s.length())));
    }
    return out;
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
