package dev.tether.telegram.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A {@code multipart/form-data} body (RFC 7578) with text fields and files, as the Bot API takes
 * uploads ({@code sendPhoto}, {@code sendDocument}): text fields, then one file part. Not
 * thread-safe; built once, then sent.
 */
final class Multipart {
  private final String boundary;
  private final ByteArrayOutputStream body = new ByteArrayOutputStream();

  Multipart() {
    this.boundary = "tether-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36)
        + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
  }

  /** The Content-Type header value, with the boundary. */
  String contentType() {
    return "multipart/form-data; boundary=" + boundary;
  }

  Multipart field(String name, String value) {
    ascii("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n"
        + "Content-Type: text/plain; charset=utf-8\r\n\r\n");
    body.writeBytes(value.getBytes(StandardCharsets.UTF_8));
    ascii("\r\n");
    return this;
  }

  /**
   * Finishes the body with one file part: the pieces to send, in order (the fields and the part
   * header, {@code bytes} itself, uncopied, and the closing boundary). {@code fileName} must be
   * plain ASCII without quotes (the bridge makes its own).
   */
  List<byte[]> file(String name, String fileName, String contentType, byte[] bytes) {
    ascii("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\"" + fileName + "\"\r\n"
        + "Content-Type: " + contentType + "\r\n\r\n");
    byte[] head = body.toByteArray();
    byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
    return List.of(head, bytes, tail);
  }

  private void ascii(String s) {
    body.writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }
}
