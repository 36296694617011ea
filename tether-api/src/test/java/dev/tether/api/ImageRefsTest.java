package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.blobs.BlobCorruptedException;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.testing.MemoryBlobStore;
import dev.tether.api.testing.TestImages;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Blob refs beside inline images: listing, inlining and storing, with every other field kept. */
class ImageRefsTest {
  private static final String KEY = "ab".repeat(32) + ".png";

  private static Frame frame(String payload) {
    return FrameCodec.standard().read(("{\"v\":1,\"type\":\"assistant.done\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":"
        + payload + "}").getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void refs_listsOnlyRefs_withIndexTypeKeyAndSize() {
    Frame f = frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"},"
        + "{\"media_type\":\"image/png\",\"blob\":\"" + KEY + "\",\"size\":12}]}");
    assertEquals(List.of(new ImageRefs.Ref(1, MediaType.PNG, KEY, 12)), ImageRefs.refs(f));
    assertTrue(ImageRefs.hasRefs(f));
    assertTrue(ImageRefs.refs(frame("{\"text\":\"t\"}")).isEmpty());
  }

  @Test
  void inline_replacesRefsWithData_keepingEveryOtherField() throws Exception {
    Frame f = frame("{\"text\":\"t\",\"cancelled\":true,\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + KEY + "\",\"size\":8}],\"x\":[1,{\"y\":null}]}");
    Frame inline = ImageRefs.inline(f, ref -> new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
    assertEquals("{\"text\":\"t\",\"cancelled\":true,\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}],\"x\":[1,{\"y\":null}]}",
        inline.payload().toString());
    Payload.AssistantDone done = (Payload.AssistantDone) inline.payloadView();
    assertEquals("iVBORw0KGgo=", done.images().get(0).data());
    Frame plain = frame("{\"text\":\"t\"}");
    assertSame(plain, ImageRefs.inline(plain, ref -> { throw new AssertionError("no refs to read"); }));
  }

  @Test
  void inline_missingBlob_isBlobNotFoundNamingTheImage() {
    Frame f = frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + KEY + "\"}]}");
    TetherException e = assertThrows(TetherException.class, () -> ImageRefs.inline(f, ref -> { throw new NoSuchFileException(ref.key()); }));
    assertEquals(ErrorCode.BLOB_NOT_FOUND, e.code());
    assertEquals(0, e.imageIndex().orElseThrow());
  }

  @Test
  void toRefs_storesInlineImages_andInlineBringsThemBack() throws Exception {
    Map<String, byte[]> store = new HashMap<>();
    Frame f = frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}]}");
    Frame refs = ImageRefs.toRefs(f, (bytes, type) -> {
      store.put(KEY, bytes);
      return KEY;
    });
    assertEquals("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + KEY + "\",\"size\":8}]}", refs.payload().toString());
    assertEquals(f.payload(), ImageRefs.inline(refs, ref -> store.get(ref.key())).payload());
  }

  @Test
  void reader_readsByKeyFromABlobStore_checkingTheDeclaredSize_andNamingTheImage() throws Exception {
    MemoryBlobStore blobs = new MemoryBlobStore();
    byte[] png = TestImages.png(16);
    String key = blobs.put(png, MediaType.PNG).fileName();
    String image = "{\"media_type\":\"image/png\",\"blob\":\"" + key + "\"";
    Frame f = frame("{\"text\":\"t\",\"images\":[" + image + ",\"size\":" + png.length + "}]}");
    assertEquals(Base64.getEncoder().encodeToString(png),
        ((Payload.AssistantDone) ImageRefs.inline(f, ImageRefs.reader(blobs)).payloadView()).images().get(0).data());

    Frame lying = frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}," + image
        + ",\"size\":" + (png.length + 1) + "}]}");
    TetherException e = assertThrows(TetherException.class, () -> ImageRefs.inline(lying, ImageRefs.reader(blobs)));
    assertEquals(ErrorCode.INVALID_BLOB_REF, e.code());
    assertEquals(1, e.imageIndex().orElseThrow());
    assertTrue(e.getMessage().startsWith("image 1 declares size"), e.getMessage());

    blobs.corrupt(BlobKey.of(key), TestImages.png(17));
    assertThrows(BlobCorruptedException.class, () -> ImageRefs.inline(f, ImageRefs.reader(blobs)));
    Frame missing = frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + KEY + "\"}]}");
    assertEquals(ErrorCode.BLOB_NOT_FOUND, assertThrows(TetherException.class,
        () -> ImageRefs.inline(missing, ImageRefs.reader(blobs))).code());
  }

  @Test
  void badRefs_areRefusedWithStableCodes() {
    for (String key : List.of("../x.png", "ab".repeat(32) + ".jpg", "AB".repeat(32) + ".png")) {
      Frame f = frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + key + "\"}]}");
      assertEquals(ErrorCode.INVALID_BLOB_REF, assertThrows(TetherException.class, () -> ImageRefs.refs(f)).code(), key);
    }
    Frame both = frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + KEY + "\",\"data\":\"AAAA\"}]}");
    assertEquals(ErrorCode.MALFORMED_FRAME, assertThrows(TetherException.class, () -> ImageRefs.refs(both)).code());
  }

  @Test
  void refs_ofInlineImages_skipsTheirData_butStillRefusesDataThatIsNotAString() {
    // Serve scans every POST for refs; a scan that materialized the base64 (twice the image on the
    // heap, outside the ingress budget) ran the daemon out of memory under MemoryBudgetLoadTest.
    // That test is the regression test for the allocation; this one keeps the checks.
    Frame f = frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + "A".repeat(1 << 20) + "\"},"
        + "{\"media_type\":\"image/png\",\"blob\":\"" + KEY + "\"}]}");
    assertEquals(List.of(new ImageRefs.Ref(1, MediaType.PNG, KEY, -1)), ImageRefs.refs(f));
    assertEquals(ErrorCode.MALFORMED_FRAME, assertThrows(TetherException.class,
        () -> ImageRefs.refs(frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"data\":7}]}"))).code());
    assertEquals(ErrorCode.MALFORMED_FRAME, assertThrows(TetherException.class,
        () -> ImageRefs.refs(frame("{\"text\":\"t\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"AAAA\",\"blob\":\"" + KEY + "\"}]}"))).code());
  }
}
