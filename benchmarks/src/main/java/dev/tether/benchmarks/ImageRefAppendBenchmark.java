package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.ImageRefs;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.images.FrameValidator;
import dev.tether.api.blobs.BlobKey;
import dev.tether.sessions.FileBlobStore;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.Retention;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ingress of one {@code user.message} with 4 images of {@code imageKiB} each, as the host does it:
 * validate the wire bytes, check each image, store the frame in a memory ring. {@code form=inline}
 * carries the images as base64 (the validator scans it in place); {@code form=refs} carries blob
 * refs {@code {media_type, blob, size}} whose bytes are already in a blob directory, and checks
 * each blob as the server does (read, SHA-256 against the key, signature). Prints the ring's
 * payload bytes per frame at the end of each trial.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ImageRefAppendBenchmark -f 1 -wi 2 -i 3
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class ImageRefAppendBenchmark {
  @Param({"inline", "refs"})
  public String form;

  @Param({"1024"})
  public int imageKiB;

  private Path dir;
  private FileBlobStore blobs;
  private byte[] wire;
  private MemoryTetherStore store;
  private FrameValidator validator;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("tether-ref-bench");
    blobs = FileBlobStore.builder(dir).durable(false).build();
    validator = FrameValidator.standard();
    Random random = new Random(42);
    StringBuilder images = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      byte[] png = new byte[imageKiB * 1024];
      random.nextBytes(png);
      System.arraycopy(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, 0, png, 0, 8);
      if (i > 0) {
        images.append(',');
      }
      if (form.equals("inline")) {
        images.append("{\"media_type\":\"image/png\",\"data\":\"").append(Base64.getEncoder().encodeToString(png)).append("\"}");
      } else {
        BlobKey key = blobs.put(png, MediaType.PNG);
        images.append("{\"media_type\":\"image/png\",\"blob\":\"").append(key.fileName()).append("\",\"size\":").append(png.length).append('}');
      }
    }
    Frame frame = Frame.builder("user.message").version(1).session(SessionKey.host("s")).msgId("host-1")
        .payload(RawJson.of("{\"text\":\"four pictures\",\"images\":[" + images + "]}")).build();
    wire = FrameCodec.standard().write(frame);
    store = MemoryTetherStore.builder().retention(Retention.builder().maxFrames(64).build()).build();
  }

  @Benchmark
  public long ingress() throws Exception {
    validator.validate(wire);
    Frame frame = FrameCodec.standard().read(wire);
    for (ImageRefs.Ref ref : ImageRefs.refs(frame)) {
      byte[] bytes = blobs.get(BlobKey.parse(ref.key()).orElseThrow());
      dev.tether.images.Images.requireImage(ref.mediaType(), bytes.length, bytes, 16, ref.index(), validator.limits());
    }
    return store.append("i", frame);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    List<Frame> ring = store.retained("i");
    long bytes = store.retainedBytes("i");
    System.out.printf("%n[%s] ring: %d frames, %d payload bytes, %d bytes per frame; wire frame %d bytes%n",
        form, ring.size(), bytes, ring.isEmpty() ? 0 : bytes / ring.size(), wire.length);
    store.close();
    DurableAppendBenchmark.deleteTree(dir);
  }
}
