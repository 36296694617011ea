package dev.tether.server.internal;

import java.util.Locale;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/**
 * The body encodings the server understands: none. A frame must arrive as plain JSON, with a
 * Content-Length or chunked. A compressed body is refused instead of being stored as garbage:
 * {@code Content-Encoding} other than {@code identity} is 415, a {@code Transfer-Encoding}
 * coding other than {@code chunked} is 501 (RFC 9112 section 6.1). Stateless.
 */
final class Encodings {
  private Encodings() {}

  /** The sentence refusing the request's encodings, or null when the body is plain. */
  static String refusal(HttpFields headers) {
    for (HttpField f : headers) {
      if (f.getHeader() == HttpHeader.CONTENT_ENCODING) {
        for (String coding : f.getValues()) {
          if (!coding.isBlank() && !"identity".equalsIgnoreCase(coding.trim())) {
            return "Content-Encoding '" + coding.trim().toLowerCase(Locale.ROOT)
                + "' is not supported; send the frame uncompressed";
          }
        }
      } else if (f.getHeader() == HttpHeader.TRANSFER_ENCODING) {
        for (String coding : f.getValues()) {
          String c = coding.trim().toLowerCase(Locale.ROOT);
          if (!c.isEmpty() && !"chunked".equals(c) && !"identity".equals(c)) {
            return "Transfer-Encoding '" + c + "' is not implemented; send the frame with a Content-Length or chunked only";
          }
        }
      }
    }
    return null;
  }
}
