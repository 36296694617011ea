package dev.tether.store.jetstream.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.sessions.FileBlobStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.QuickTheory;
import org.quicktheories.generators.SourceDSL;

/** The store's offload of inline images to blobs and back, on a real file blob store. */
class ImageOffloadTest {
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  static byte[] png(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    byte[] sig = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    System.arraycopy(sig, 0, b, 0, sig.length);
    return b;
  }

  static Frame frame(String payload) {
    return Frame.builder("user.message").version(1).session(SessionKey.host("s")).payload(RawJson.of(payload)).build();
  }

  static JsonNode payload(Frame f) throws Exception {
    return JSON.readTree(f.payload().toByteArray());
  }

  @Test
  void toRefsAndBack_keepsTheBytes_otherFieldsAndTheirOrder() throws Exception {
    FileBlobStore blobs = FileBlobStore.open(dir);
    byte[] a = png(70_000, 1);
    byte[] b = png(10, 2);
    String in = "{\"text\":\"two\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + Base64.getEncoder().encodeToString(a)
        + "\",\"alt\":\"first\",\"meta\":{\"x\":[1,2]}},{\"media_type\":\"image/png\",\"data\":\""
        + Base64.getEncoder().withoutPadding().encodeToString(b) + "\"}],\"user\":{\"id\":7}}";
    Frame refs = ImageOffload.toRefs(frame(in), blobs);
    JsonNode r = payload(refs);
    assertEquals("two", r.get("text").asText());
    assertEquals(7, r.at("/user/id").asInt());
    assertTrue(r.at("/images/0/data").isMissingNode());
    assertEquals(a.length, r.at("/images/0/size").asInt());
    assertEquals("first", r.at("/images/0/alt").asText());
    assertEquals(2, r.at("/images/0/meta/x/1").asInt());
    Frame back = ImageOffload.toInline(refs, blobs);
    JsonNode i = payload(back);
    assertArrayEquals(a, Base64.getDecoder().decode(i.at("/images/0/data").asText()));
    assertArrayEquals(b, Base64.getDecoder().decode(i.at("/images/1/data").asText()), "padding optional on the way in");
    assertTrue(i.at("/images/0/blob").isMissingNode() && i.at("/images/0/size").isMissingNode());
    assertEquals("first", i.at("/images/0/alt").asText());
    assertEquals(r.get("user"), i.get("user"));
    assertSame(back, ImageOffload.toInline(back, blobs), "nothing to inline: the same frame");
  }

  /**
   * A frame read off the wire keeps its payload as a slice of the wire bytes, and a JSON writer
   * may escape the base64 alphabet's '/' as "\/": both must decode to the same bytes.
   */
  @Test
  void payloadSlicedFromWireBytes_andEscapedBase64_decodeTheSame() throws Exception {
    FileBlobStore blobs = FileBlobStore.open(dir);
    byte[] bytes = png(3000, 5);
    String b64 = Base64.getEncoder().encodeToString(bytes);
    assertTrue(b64.contains("/"), "the seed gives a '/' to escape");
    for (String data : new String[] {b64, b64.replace("/", "\\/")}) {
      String wire = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":"
          + "{\"text\":\"x\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + data + "\"}]},\"seq\":0}";
      Frame f = dev.tether.api.FrameCodec.standard().read(wire.getBytes(StandardCharsets.UTF_8));
      Frame refs = ImageOffload.toRefs(f, blobs);
      assertArrayEquals(bytes, blobs.get(dev.tether.api.blobs.BlobKey.of(payload(refs).at("/images/0/blob").asText())));
      assertArrayEquals(bytes, Base64.getDecoder().decode(payload(ImageOffload.toInline(refs, blobs)).at("/images/0/data").asText()));
    }
  }

  @Test
  void framesWithoutImages_areReturnedAsTheyAre() throws Exception {
    FileBlobStore blobs = FileBlobStore.open(dir);
    for (String p : new String[] {"{\"text\":\"no images\"}", "{\"images\":[]}", "{\"text\":\"\\\"images\\\"\"}"}) {
      Frame f = frame(p);
      assertSame(f, ImageOffload.toRefs(f, blobs), p);
      assertSame(f, ImageOffload.toInline(f, blobs), p);
    }
  }

  @Test
  void hostileImages_areRefusedWithTheirCode_andNothingIsStored() throws Exception {
    FileBlobStore blobs = FileBlobStore.open(dir);
    assertEquals(ErrorCode.INVALID_BASE64, assertThrows(TetherException.class, () -> ImageOffload.toRefs(
        frame("{\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBO*w0KGgo=\"}]}"), blobs)).code());
    assertEquals(ErrorCode.INVALID_BASE64, assertThrows(TetherException.class, () -> ImageOffload.toRefs(
        frame("{\"images\":[{\"media_type\":\"image/png\",\"data\":\"data:image/png;base64,iVBORw0KGgo=\"}]}"), blobs)).code());
    assertEquals(ErrorCode.UNSUPPORTED_MEDIA_TYPE, assertThrows(TetherException.class, () -> ImageOffload.toRefs(
        frame("{\"images\":[{\"media_type\":\"image/bmp\",\"data\":\"iVBORw0KGgo=\"}]}"), blobs)).code());
    assertEquals(ErrorCode.MALFORMED_FRAME, assertThrows(TetherException.class, () -> ImageOffload.toInline(
        frame("{\"images\":[{\"media_type\":\"image/png\",\"blob\":\"../../etc/passwd\"}]}"), blobs)).code());
    assertThrows(NoSuchFileException.class, () -> ImageOffload.toInline(
        frame("{\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + "a".repeat(64) + ".png\"}]}"), blobs));
    try (var files = java.nio.file.Files.list(dir)) {
      assertEquals(0, files.filter(f -> f.toString().endsWith(".png")).count(), "nothing stored");
    }
  }

  @Test
  void anyBytes_roundTripThroughABlob() throws Exception {
    FileBlobStore blobs = FileBlobStore.open(dir);
    QuickTheory.qt().withExamples(50).forAll(SourceDSL.integers().between(8, 4096), SourceDSL.longs().all()).checkAssert((size, seed) -> {
      try {
        byte[] bytes = png(size, seed);
        Frame f = frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + Base64.getEncoder().encodeToString(bytes) + "\"}]}");
        Frame back = ImageOffload.toInline(ImageOffload.toRefs(f, blobs), blobs);
        assertEquals(new String(f.payload().toByteArray(), StandardCharsets.UTF_8), new String(back.payload().toByteArray(), StandardCharsets.UTF_8));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
  }
}
