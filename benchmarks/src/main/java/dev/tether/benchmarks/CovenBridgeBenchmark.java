package dev.tether.benchmarks;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.coven.internal.ReplyTranslator;
import dev.tether.coven.internal.UserMessageTranslator;
import dev.tether.coven.internal.proto.AgentMessage;
import dev.tether.coven.internal.proto.FileAttachment;
import dev.tether.coven.internal.proto.FileData;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.SendMessage;
import dev.tether.coven.internal.proto.ServerMessage;
import dev.tether.images.FrameValidator;
import dev.tether.images.Images;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
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
 * The coven bridge's two heavy paths, each beside a plain protobuf parse of the same bytes and its
 * floor (what the bytes force) in the same run:
 *
 * <ul>
 *   <li>{@code sendMessageToFrame}: the gateway's {@code SendMessage} with four 5 MiB PNG
 *       attachments (20,971,620 bytes on the wire) parsed from its bytes and turned into the
 *       validated tether {@code user.message} (base64 of every image, the checks, the payload
 *       JSON); baseline {@code sendMessageParseOnly}: {@code ServerMessage.parseFrom} of the same
 *       bytes; floor {@code sendMessageFloor}: that parse plus the JDK encoder's base64 of the four
 *       attachments into one array.
 *   <li>{@code doneToFileData}: the agent's {@code assistant.done} with one 1 MiB PNG turned into
 *       the coven events (validation again, base64 decode, {@code FileData}, {@code Done}) and
 *       serialised as gRPC would send them; baseline {@code fileDataParseOnly}:
 *       {@code AgentMessage.parseFrom} of those bytes; floor {@code doneFloor}: the validator's check
 *       of the frame, the JDK decoder's decode of the image's base64 (found once in set-up) and
 *       the same serialisation of a {@code file} event holding those bytes.
 * </ul>
 *
 * <pre>
 * ./mvnw -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar CovenBridgeBenchmark -f 1 -wi 2 -i 3 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class CovenBridgeBenchmark {
  static final int ATTACHMENT_BYTES = 5 << 20;
  static final int ANSWER_IMAGE_BYTES = 1 << 20;
  static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

  private final UserMessageTranslator translator = new UserMessageTranslator(FrameValidator.standard());
  byte[] sendWire;
  Frame done;
  byte[] fileDataWire;
  BenchImages.Span doneImage;

  @Setup
  public void setUp() throws IOException {
    Random random = new Random(15);
    SendMessage.Builder send = SendMessage.newBuilder().setRequestId("req-1").setThreadId("thread-1").setSender("alice")
        .setContent("What is in these four pictures?");
    for (int i = 0; i < 4; i++) {
      send.addAttachments(FileAttachment.newBuilder().setFilename("photo-" + i + ".png").setMimeType("image/png")
          .setData(ByteString.copyFrom(png(random, ATTACHMENT_BYTES))));
    }
    sendWire = ServerMessage.newBuilder().setSendMessage(send).build().toByteArray();
    done = Frames.assistantDone(new SessionKey("coven", "thread-1"), "host-1", "Here is the chart.",
        List.of(Images.fromBytes(png(random, ANSWER_IMAGE_BYTES), MediaType.PNG)));
    fileDataWire = responsesWire(done);
    doneImage = BenchImages.dataSpans(done.payload()).get(0);
    if (sendMessageFloor().length != sendMessageToFrame().payloadView().images().stream().mapToInt(i -> i.data().length()).sum()) {
      throw new IllegalStateException("the floor encodes a different number of bytes");
    }
    if (sendMessageToFrame().payloadView().images().size() != 4) {
      throw new IllegalStateException("the bridge lost an image");
    }
  }

  private static byte[] png(Random random, int size) {
    byte[] b = new byte[size];
    random.nextBytes(b);
    System.arraycopy(PNG_SIGNATURE, 0, b, 0, PNG_SIGNATURE.length);
    return b;
  }

  private static byte[] responsesWire(Frame done) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(ANSWER_IMAGE_BYTES + 4096);
    for (MessageResponse r : new ReplyTranslator("req-1", FrameValidator.standard()).onFrame(done)) {
      if (r.hasFile()) {
        AgentMessage.newBuilder().setResponse(r).build().writeTo(out);
      }
    }
    return out.toByteArray();
  }

  @Benchmark
  public Frame sendMessageToFrame() throws InvalidProtocolBufferException {
    SendMessage message = ServerMessage.parseFrom(sendWire).getSendMessage();
    return translator.toFrame(message, "host-1", List.of());
  }

  @Benchmark
  public ServerMessage sendMessageParseOnly() throws InvalidProtocolBufferException {
    return ServerMessage.parseFrom(sendWire);
  }

  /** Input bytes per encoder call: a multiple of 3, so the chunks' base64 joins without padding. */
  private static final int CHUNK = 3 * 16 * 1024;

  @Benchmark
  public byte[] sendMessageFloor() throws InvalidProtocolBufferException {
    SendMessage message = ServerMessage.parseFrom(sendWire).getSendMessage();
    long total = 0;
    for (FileAttachment a : message.getAttachmentsList()) {
      total += 4L * ((a.getData().size() + 2) / 3);
    }
    byte[] out = new byte[(int) total];
    byte[] src = new byte[CHUNK];
    byte[] dst = new byte[CHUNK / 3 * 4];
    Base64.Encoder encoder = Base64.getEncoder();
    int pos = 0;
    for (FileAttachment a : message.getAttachmentsList()) {
      ByteString data = a.getData();
      for (int off = 0; off < data.size(); off += CHUNK) {
        int n = Math.min(CHUNK, data.size() - off);
        data.copyTo(src, off, 0, n);
        int k = n == CHUNK ? encoder.encode(src, dst) : encoder.encode(Arrays.copyOf(src, n), dst);
        System.arraycopy(dst, 0, out, pos, k);
        pos += k;
      }
    }
    return out;
  }

  @Benchmark
  public byte[] doneFloor() throws IOException {
    FrameValidator.standard().validate(done);
    byte[] bytes = Base64.getDecoder().decode(ByteBuffer.wrap(doneImage.array(), doneImage.offset(), doneImage.length())).array();
    // serialised as doneToFileData serialises its events (the wire needs the bytes once more)
    ByteArrayOutputStream out = new ByteArrayOutputStream(ANSWER_IMAGE_BYTES + 4096);
    AgentMessage.newBuilder().setResponse(MessageResponse.newBuilder().setRequestId("req-1").setFile(FileData.newBuilder()
        .setFilename("image-1.png").setMimeType("image/png").setData(UnsafeByteOperations.unsafeWrap(bytes)))).build().writeTo(out);
    return out.toByteArray();
  }

  @Benchmark
  public byte[] doneToFileData() throws IOException {
    return responsesWire(done);
  }

  @Benchmark
  public AgentMessage fileDataParseOnly() throws InvalidProtocolBufferException {
    return AgentMessage.parseFrom(fileDataWire);
  }
}
