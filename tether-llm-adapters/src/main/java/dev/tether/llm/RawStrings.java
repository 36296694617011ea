package dev.tether.llm;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Large string values (image base64) taken from the bytes a parser reads, not through the parser's
 * text buffer, which would hold each one as a char array before copying it into a String.
 * Stateless.
 */
final class RawStrings {
  private RawStrings() {}

  /**
   * The text of the string value the parser stands on, which must be a parser created over
   * {@code bytes} from {@code base}; the parser is moved on to the next token. Plain ASCII without
   * escapes (all that base64 can be) is one copy from {@code bytes}; anything else is read by the
   * parser again from its own bytes, so the result is always the string's JSON text.
   */
  static String text(JsonParser p, byte[] bytes, int base) throws IOException {
    int quote = base + (int) p.currentTokenLocation().getByteOffset();
    // The parser's skip over the string is the one pass that finds its end.
    p.nextToken();
    int end = base + (int) p.currentTokenLocation().getByteOffset();
    while (bytes[end - 1] != '"') {
      end--; // back over the whitespace and comma before the next token
    }
    int start = quote + 1;
    int length = end - 1 - start;
    // US-ASCII copies with a vectorized check for bytes above 0x7F and replaces them with U+FFFD,
    // which a Latin-1 String cannot hold: so indexOf finds it only when there was one.
    String s = new String(bytes, start, length, StandardCharsets.US_ASCII);
    if (s.indexOf('\\') < 0 && s.indexOf('\uFFFD') < 0) {
      return s;
    }
    try (JsonParser again = McpFrameJson.FACTORY.createParser(bytes, quote, length + 2)) {
      again.nextToken();
      return again.getText();
    }
  }
}
