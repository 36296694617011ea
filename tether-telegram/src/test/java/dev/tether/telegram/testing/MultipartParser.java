package dev.tether.telegram.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses a {@code multipart/form-data} body (RFC 7578) for {@link RecordingBotApi}: text fields and one file. */
final class MultipartParser {
  private static final Pattern BOUNDARY = Pattern.compile("boundary=\"?([^\";]+)\"?");
  private static final Pattern NAME = Pattern.compile("\\bname=\"([^\"]*)\"");
  private static final Pattern FILE_NAME = Pattern.compile("\\bfilename=\"([^\"]*)\"");

  private MultipartParser() {}

  static RecordingBotApi.Upload parse(String contentType, byte[] body, Map<String, String> fields) throws IOException {
    Matcher b = BOUNDARY.matcher(contentType);
    if (!b.find()) {
      throw new IOException("multipart without boundary");
    }
    byte[] delimiter = ("--" + b.group(1)).getBytes(StandardCharsets.US_ASCII);
    byte[] next = ("\r\n--" + b.group(1)).getBytes(StandardCharsets.US_ASCII);
    int pos = indexOf(body, delimiter, 0);
    if (pos != 0) {
      throw new IOException("multipart body does not start with its boundary");
    }
    RecordingBotApi.Upload upload = null;
    pos += delimiter.length;
    while (true) {
      if (startsWith(body, pos, "--")) {
        return upload; // the closing delimiter
      }
      if (!startsWith(body, pos, "\r\n")) {
        throw new IOException("malformed multipart delimiter line");
      }
      pos += 2;
      int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), pos);
      if (headersEnd < 0) {
        throw new IOException("multipart part without header end");
      }
      String headers = new String(body, pos, headersEnd - pos, StandardCharsets.UTF_8);
      int contentStart = headersEnd + 4;
      int contentEnd = indexOf(body, next, contentStart);
      if (contentEnd < 0) {
        throw new IOException("multipart part without closing boundary");
      }
      byte[] content = Arrays.copyOfRange(body, contentStart, contentEnd);
      String disposition = null;
      String type = "text/plain";
      for (String line : headers.split("\r\n")) {
        String lower = line.toLowerCase(Locale.ROOT);
        if (lower.startsWith("content-disposition:")) {
          disposition = line;
        } else if (lower.startsWith("content-type:")) {
          type = line.substring("content-type:".length()).strip();
        }
      }
      if (disposition == null) {
        throw new IOException("multipart part without Content-Disposition");
      }
      Matcher name = NAME.matcher(disposition);
      if (!name.find()) {
        throw new IOException("multipart part without a name");
      }
      Matcher file = FILE_NAME.matcher(disposition);
      if (file.find()) {
        if (upload != null) {
          throw new IOException("more than one file in the request");
        }
        upload = new RecordingBotApi.Upload(name.group(1), file.group(1), type, content);
      } else {
        fields.put(name.group(1), new String(content, StandardCharsets.UTF_8));
      }
      pos = contentEnd + next.length;
    }
  }

  private static boolean startsWith(byte[] a, int at, String s) {
    byte[] p = s.getBytes(StandardCharsets.US_ASCII);
    return at + p.length <= a.length && Arrays.equals(a, at, at + p.length, p, 0, p.length);
  }

  private static int indexOf(byte[] a, byte[] p, int from) {
    outer:
    for (int i = from; i <= a.length - p.length; i++) {
      for (int j = 0; j < p.length; j++) {
        if (a[i + j] != p[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
