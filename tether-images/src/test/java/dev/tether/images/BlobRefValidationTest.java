package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * Images as blob refs {@code {media_type, blob, size}} beside inline ones: the validator checks
 * their shape (exactly one of data and blob, a key for the media type, a size within the limits);
 * whether the blob exists and matches is checked by whoever holds the blob store.
 */
class BlobRefValidationTest {
  private static final String KEY = "0123456789abcdef".repeat(4);
  private static final FrameValidator V = FrameValidator.standard();

  private static byte[] frame(String... images) {
    return ("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":{\"text\":\"x\",\"images\":["
        + String.join(",", images) + "]}}").getBytes(StandardCharsets.UTF_8);
  }

  private static String ref(String mediaType, String key, String size) {
    return "{\"media_type\":\"" + mediaType + "\",\"blob\":\"" + key + "\"" + (size == null ? "" : ",\"size\":" + size) + "}";
  }

  private static void refused(ErrorCode code, int index, byte[] wire) {
    TetherException e = assertThrows(TetherException.class, () -> V.validate(wire));
    assertEquals(code, e.code(), e.getMessage());
    if (index >= 0) {
      assertEquals(index, e.imageIndex().orElseThrow(), e.getMessage());
    }
  }

  @Test
  void wellFormedRefs_pass_withOrWithoutSize() {
    V.validate(frame(ref("image/png", KEY + ".png", "1234"), ref("image/jpeg", KEY + ".jpg", null),
        ref("image/gif", KEY + ".gif", "0"), ref("image/webp", KEY + ".webp", "10485760")));
  }

  @Test
  void keysThatAreNotBlobKeysForTheirType_invalidBlobRef() {
    for (String key : new String[] {KEY + ".jpg", "../../etc/passwd", KEY.toUpperCase() + ".png", KEY.substring(1) + ".png",
        KEY + ".png/..", KEY + ".PNG", "", KEY + ".png\\u0000"}) {
      refused(ErrorCode.INVALID_BLOB_REF, 0, frame(ref("image/png", key, "10")));
    }
  }

  @Test
  void bothOrNeitherDataAndBlob_malformed_sayingExactlyOne() {
    TetherException e = assertThrows(TetherException.class, () -> V.validate(frame(
        "{\"media_type\":\"image/png\",\"blob\":\"" + KEY + ".png\",\"data\":\"iVBORw0KGgo=\"}")));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    assertTrue(e.getMessage().contains("exactly one"), e.getMessage());
    refused(ErrorCode.MALFORMED_FRAME, 0, frame("{\"media_type\":\"image/png\"}"));
    refused(ErrorCode.MALFORMED_FRAME, 0, frame("{\"media_type\":\"image/png\",\"blob\":7}"));
  }

  @Test
  void sizes_mustBeNonNegativeIntegersWithinTheLimits() {
    refused(ErrorCode.MALFORMED_FRAME, 0, frame(ref("image/png", KEY + ".png", "\"12\"")));
    refused(ErrorCode.MALFORMED_FRAME, 0, frame(ref("image/png", KEY + ".png", "-1")));
    refused(ErrorCode.MALFORMED_FRAME, 0, frame(ref("image/png", KEY + ".png", "1.5")));
    refused(ErrorCode.IMAGE_TOO_LARGE, 1, frame(ref("image/png", KEY + ".png", "1"), ref("image/png", KEY + ".png", "10485761")));
    refused(ErrorCode.FRAME_IMAGES_TOO_LARGE, -1, frame(ref("image/png", KEY + ".png", "10485760"),
        ref("image/png", KEY + ".png", "10485760"), ref("image/png", KEY + ".png", "1")));
  }

  @Test
  void refsCountTowardTheImageLimit_andAnUnknownTypeIsUnsupported() {
    refused(ErrorCode.TOO_MANY_IMAGES, -1, frame(Collections.nCopies(5, ref("image/png", KEY + ".png", "1")).toArray(String[]::new)));
    refused(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 0, frame(ref("image/bmp", KEY + ".png", "1")));
  }
}
