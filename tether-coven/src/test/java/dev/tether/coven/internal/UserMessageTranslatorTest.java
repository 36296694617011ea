package dev.tether.coven.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arrays;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import com.google.protobuf.ByteString;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Limits;
import dev.tether.api.Payload;
import dev.tether.api.TetherException;
import dev.tether.coven.internal.proto.FileAttachment;
import dev.tether.coven.internal.proto.SendMessage;
import dev.tether.images.FrameValidator;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class UserMessageTranslatorTest {
  static final byte[] PNG_HEAD = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  final UserMessageTranslator translator = new UserMessageTranslator(FrameValidator.standard());

  static byte[] png(int size) {
    byte[] b = new byte[Math.max(size, 16)];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i * 31);
    }
    System.arraycopy(PNG_HEAD, 0, b, 0, PNG_HEAD.length);
    return b;
  }

  static FileAttachment attachment(String name, String mime, byte[] data) {
    return FileAttachment.newBuilder().setFilename(name).setMimeType(mime).setData(ByteString.copyFrom(data)).build();
  }

  @Test
  void anyTextSenderAndImageSize_roundTripsThroughTheWire_andPassesTheValidator() {
    qt().withExamples(200).forAll(strings().allPossible().ofLengthBetween(0, 40), strings().allPossible().ofLengthBetween(0, 10),
        integers().between(0, 3000), strings().allPossible().ofLengthBetween(0, 12)).checkAssert((text, sender, size, filename) -> {
          byte[] data = png(size);
          SendMessage m = wire(SendMessage.newBuilder().setRequestId("r").setThreadId("t").setSender(sender).setContent(text)
              .addAttachments(attachment(filename, "image/png", data)).build());
          Frame frame = translator.toFrame(m, "host-1", List.of());
          // the bytes a remote host receives are valid and read back to the same message
          Frame read = FrameValidator.standard().read(FrameCodec.standard().write(frame));
          Payload.UserMessage p = (Payload.UserMessage) read.payloadView();
          assertEquals(m.getContent(), p.text());
          assertArrayEquals(data, Base64.getDecoder().decode(p.images().get(0).data()));
          assertEquals(m.getSender().isEmpty(), p.user().isEmpty());
          assertTrue(p.extra().get("attachments").toString().contains("\"size\":" + data.length));
        });
  }

  /** The message as the agent gets it: through protobuf's wire form (strings are UTF-8 there). */
  static SendMessage wire(SendMessage m) {
    try {
      return SendMessage.parseFrom(m.toByteArray());
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void imageSizesOnBothSidesOfTheLimit_areAcceptedOrRefusedByTheSameRuleAsTheValidator() {
    Limits small = Limits.builder().maxImageBytes(1000).maxFrameImageBytes(2500).build();
    UserMessageTranslator t = new UserMessageTranslator(FrameValidator.withLimits(small));
    qt().withExamples(60).forAll(integers().between(16, 1100), integers().between(16, 1100), integers().between(16, 1100))
        .checkAssert((a, b, c) -> {
          SendMessage m = SendMessage.newBuilder().setRequestId("r").setThreadId("t")
              .addAttachments(attachment("a.png", "image/png", png(a))).addAttachments(attachment("b.png", "image/png", png(b)))
              .addAttachments(attachment("c.png", "image/png", png(c))).build();
          boolean fits = a <= 1000 && b <= 1000 && c <= 1000 && a + b + c <= 2500;
          if (fits) {
            assertEquals(3, t.toFrame(m, "h", List.of()).payloadView().images().size());
          } else {
            TetherException e = assertThrows(TetherException.class, () -> t.toFrame(m, "h", List.of()));
            assertTrue(e.code() == ErrorCode.IMAGE_TOO_LARGE || e.code() == ErrorCode.FRAME_IMAGES_TOO_LARGE, e.toString());
          }
        });
  }

  @Test
  void nonImageAttachment_isNamedInTheText_andListedAsNotForwarded() {
    SendMessage m = SendMessage.newBuilder().setRequestId("r").setThreadId("t").setContent("see file")
        .addAttachments(attachment("notes.txt", "text/plain", "hello".getBytes())).build();
    Payload.UserMessage p = (Payload.UserMessage) translator.toFrame(m, "h", List.of()).payloadView();
    assertEquals("see file\n[attachment notes.txt (text/plain, 5 bytes) was not forwarded: only images reach the agent]", p.text());
    assertTrue(p.images().isEmpty());
    assertTrue(p.extra().get("attachments").toString().contains("\"forwarded\":false"));
  }

  @Test
  void emptyThreadId_mapsToTheDefaultSession_onChannelCoven() {
    Frame f = translator.toFrame(SendMessage.newBuilder().setRequestId("r").setContent("x").build(), "h", List.of());
    assertEquals("coven", f.session().orElseThrow().channel());
    assertEquals("default", f.session().orElseThrow().id());
  }

  @Test
  void injectedBlocks_comeBeforeTheContent_inOrder() {
    Frame f = translator.toFrame(SendMessage.newBuilder().setRequestId("r").setContent("question").build(), "h",
        List.of("[context from a]\none", "[context from b]\ntwo"));
    assertEquals("[context from a]\none\n\n[context from b]\ntwo\n\nquestion", ((Payload.UserMessage) f.payloadView()).text());
  }

  @Test
  void declaredTypeNotMatchingTheBytes_namesTheAttachmentAndItsImageIndex() {
    byte[] gif = Arrays.copyOf("GIF89a".getBytes(), 64);
    SendMessage m = SendMessage.newBuilder().setRequestId("r")
        .addAttachments(attachment("ok.png", "image/png", png(64)))
        .addAttachments(attachment("liar.png", "image/png", gif)).build();
    TetherException e = assertThrows(TetherException.class, () -> translator.toFrame(m, "h", List.of()));
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, e.code());
    assertEquals(1, e.imageIndex().orElseThrow());
    assertTrue(e.getMessage().startsWith("attachment liar.png: "), e.getMessage());
  }
}
