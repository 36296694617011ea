package dev.tether.telegram.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.telegram.TelegramChat;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PhotoUploadTest {
  @Test
  void decode_matchesTheJdkDecoder_paddedOrNot_acrossChunkBoundaries() {
    Random random = new Random(3);
    int[] sizes = {0, 1, 2, 3, 4, 5, 47, 48 * 1024 - 1, 48 * 1024, 48 * 1024 + 1, 48 * 1024 + 2, 3 * 48 * 1024 + 7, 1 << 20};
    for (int size : sizes) {
      byte[] bytes = new byte[size];
      random.nextBytes(bytes);
      assertArrayEquals(bytes, PhotoUpload.decode(Base64.getEncoder().encodeToString(bytes)), "padded, " + size + " bytes");
      assertArrayEquals(bytes, PhotoUpload.decode(Base64.getEncoder().withoutPadding().encodeToString(bytes)),
          "unpadded, " + size + " bytes");
    }
  }

  @Test
  void body_isTheFieldsThenTheFilePartWithTheDecodedBytesThenTheClosingBoundary() {
    byte[] png = new byte[300];
    new Random(5).nextBytes(png);
    System.arraycopy(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R',
        0, 0, 0, 64, 0, 0, 0, 32}, 0, png, 0, 24);
    PhotoUpload upload = PhotoUpload.of(TelegramChat.topic(-100, 7),
        new Image(MediaType.PNG, Base64.getEncoder().encodeToString(png)), 1, "a chart");
    assertEquals("sendPhoto", upload.method());
    String boundary = upload.contentType().substring(upload.contentType().indexOf("boundary=") + 9);
    byte[] body = upload.body().toByteArray();
    assertEquals(body.length, upload.body().length());
    String text = new String(body, StandardCharsets.ISO_8859_1);
    assertTrue(text.startsWith("--" + boundary + "\r\nContent-Disposition: form-data; name=\"chat_id\"\r\n"), text);
    assertTrue(text.contains("name=\"message_thread_id\"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n7\r\n"), text);
    assertTrue(text.contains("name=\"caption\"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\na chart\r\n"), text);
    String fileHeader = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"image-2.png\"\r\n"
        + "Content-Type: image/png\r\n\r\n";
    int at = text.indexOf(fileHeader) + fileHeader.length();
    assertTrue(at > fileHeader.length(), text);
    assertArrayEquals(png, Arrays.copyOfRange(body, at, at + png.length));
    assertEquals("\r\n--" + boundary + "--\r\n", text.substring(at + png.length));
  }
}
