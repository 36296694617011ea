package dev.tether.images;

import static dev.tether.api.testing.TestImages.ascii;
import static dev.tether.api.testing.TestImages.concat;
import static dev.tether.api.testing.TestImages.png;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Frame validation's signature check, which shares its signature table with ImageHeaders. */
class ImageCheckSignatureTest {

  @Test
  void requireSignature_acceptsBytesThatMatchTheDeclaredType() {
    ImageCheck.requireSignature(MediaType.GIF, Arrays.copyOf(ascii("GIF89a"), 12), 6, 0);
    ImageCheck.requireSignature(MediaType.PNG, Arrays.copyOf(png(3, 4), 12), 12, 0);
  }

  @Test
  void requireSignature_namesTheActualTypeOnMismatch() {
    var e = assertThrows(TetherException.class,
        () -> ImageCheck.requireSignature(MediaType.PNG, Arrays.copyOf(ascii("GIF87a"), 12), 6, 3));
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, e.code());
    assertEquals(3, e.imageIndex().orElseThrow());
    assertTrue(e.getMessage().contains("are image/gif"), e.getMessage());
  }

  @Test
  void requireSignature_readsOnlyTheDecodedPartOfTheHeadBuffer() {
    byte[] head = concat(Arrays.copyOf(png(3, 4), 8), new byte[4]);
    var e = assertThrows(TetherException.class, () -> ImageCheck.requireSignature(MediaType.PNG, head, 7, 0));
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, e.code());
    assertTrue(e.getMessage().contains("are not a PNG, JPEG, GIF or WebP image"), e.getMessage());
  }
}
