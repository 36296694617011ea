package dev.tether.store.jetstream.internal;

import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.TetherException;
import dev.tether.api.json.TetherJson;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.Base64;

/**
 * Moves a frame's inline images to a {@link BlobStore} and back, rewriting the payload's
 * {@code images} array between the two wire forms: inline {@code {media_type, data}} and blob ref
 * {@code {media_type, blob, size}}. Other payload fields and other fields of an image object are
 * kept; a payload without images is returned unchanged (the same frame). Stateless and
 * thread-safe.
 *
 * <p>One streaming pass each way: base64 is decoded straight from the parser's buffer and encoded
 * straight into the generator's, so a 28 MB frame never becomes a tree, a {@code String} per image
 * or a second validation of JSON this class wrote itself.
 */
public final class ImageOffload {
  /** Standard alphabet, no line feeds, padding written and optional on read (the wire's rule). */
  private static final Base64Variant BASE64 =
      Base64Variants.MIME_NO_LINEFEEDS.withReadPadding(Base64Variant.PaddingReadBehaviour.PADDING_ALLOWED);
  private static final byte[] IMAGES_KEY = "\"images\"".getBytes(StandardCharsets.US_ASCII);
  /**
   * The field of a ref this class made from an inline image ({@code "offloaded": true}): the
   * server puts such refs inline again for readers that did not ask for refs. Dropped when the
   * image is put back inline.
   */
  public static final String OFFLOADED = "offloaded";

  private ImageOffload() {}

  /** What to do with one image object of the array. */
  private interface ImageRewrite {
    /** Writes the image's new form, or returns false to keep it as it was. */
    boolean rewrite(ImageFields image, JsonGenerator g) throws IOException;
  }

  /**
   * {@code frame} with each inline image stored in {@code blobs} and replaced by its ref.
   *
   * @throws TetherException when an image's base64 or media type is bad or the store rejects it
   * @throws IOException when the blob store fails
   */
  public static Frame toRefs(Frame frame, BlobStore blobs) throws IOException {
    return rewrite(frame, true, (image, g) -> {
      if (image.data == null) {
        return false;
      }
      MediaType type = image.mediaType();
      BlobKey key = blobs.put(image.data, type);
      g.writeStartObject();
      g.writeStringField("media_type", type.mimeType());
      g.writeStringField("blob", key.fileName());
      g.writeNumberField("size", image.data.length);
      // The sender sent it inline: readers get it back inline unless they ask for refs.
      g.writeBooleanField(OFFLOADED, true);
      image.writeOthers(g);
      g.writeEndObject();
      return true;
    });
  }

  /**
   * {@code frame} with each blob ref replaced by the inline bytes read from {@code blobs}.
   *
   * @throws NoSuchFileException when a referenced blob is missing
   * @throws IOException when the blob store fails or a blob is corrupt
   */
  public static Frame toInline(Frame frame, BlobStore blobs) throws IOException {
    return rewrite(frame, false, (image, g) -> {
      if (image.blob == null || image.hasData) {
        return false;
      }
      BlobKey key = BlobKey.parse(image.blob).orElseThrow(() -> TetherException.forImage(
          ErrorCode.MALFORMED_FRAME, image.index, "blob ref '" + image.blob + "' is not {sha256-hex}.{ext}"));
      MediaType type = image.mediaType();
      byte[] bytes = blobs.get(key);
      g.writeStartObject();
      g.writeStringField("media_type", type.mimeType());
      g.writeFieldName("data");
      byte[] base64 = Base64.getEncoder().encode(bytes); // the JDK's encoder; no escaping needed
      g.writeRawUTF8String(base64, 0, base64.length);
      image.writeOthers(g);
      g.writeEndObject();
      return true;
    });
  }

  /** Whether the payload may carry an {@code images} array: a byte scan, no parse. */
  public static boolean mayHaveImages(Frame frame) {
    ByteBuffer b = frame.payload().asReadOnlyByteBuffer();
    int end = b.limit() - IMAGES_KEY.length;
    outer:
    for (int i = b.position(); i <= end; i++) {
      for (int j = 0; j < IMAGES_KEY.length; j++) {
        if (b.get(i + j) != IMAGES_KEY[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * Copies the payload object, letting {@code action} rewrite each image object of a top-level
   * {@code images} array; the frame itself when no image was rewritten.
   *
   * @param decodeData whether an image's {@code data} is decoded into {@link ImageFields#data}
   *     (else only noted as present and skipped)
   */
  private static Frame rewrite(Frame frame, boolean decodeData, ImageRewrite action) throws IOException {
    if (!frame.hasPayload() || !mayHaveImages(frame)) {
      return frame;
    }
    RawJson payload = frame.payload();
    boolean[] changed = {false};
    RawJson written;
    try (JsonParser p = TetherJson.parser(payload)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return frame;
      }
      // JSON this class generates from a parsed payload: no second validation pass over 28 MB.
      written = TetherJson.write(decodeData ? 1024 : payload.size() * 2 + 1024, g -> {
        g.writeStartObject();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
          JsonToken t = p.nextToken();
          g.writeFieldName(name);
          if (!name.equals("images") || t != JsonToken.START_ARRAY) {
            g.copyCurrentStructure(p);
            continue;
          }
          g.writeStartArray();
          int index = 0;
          while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_OBJECT) {
              g.copyCurrentStructure(p); // not an image object: the validator's business, kept as is
              index++;
              continue;
            }
            ImageFields image = ImageFields.read(p, index++, decodeData);
            if (action.rewrite(image, g)) {
              changed[0] = true;
            } else {
              image.writeAsRead(g);
            }
          }
          g.writeEndArray();
        }
        g.writeEndObject();
      });
    } catch (JsonProcessingException e) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, "the payload is not JSON: " + e.getOriginalMessage(), e);
    }
    return changed[0] ? frame.toBuilder().payload(written).build() : frame;
  }

  /** One image object as read: the fields that matter, the rest kept in order in a token buffer. */
  private static final class ImageFields {
    int index;
    String mediaType;
    byte[] data;
    boolean hasData;
    String blob;
    /** The whole object as read (data decoded to binary when it was decoded). */
    TokenBuffer all;

    /**
     * The current string token decoded as base64 with the JDK's decoder, straight from the
     * payload's bytes ({@link TetherJson#decodePlainBase64}: a base64 string has no escapes, so its
     * UTF-8 bytes are its characters); a string with escapes goes through the parser instead.
     */
    static byte[] decodeInPlace(JsonParser p, int index) throws IOException {
      try {
        byte[] plain = TetherJson.decodePlainBase64(p);
        if (plain != null) {
          return plain;
        }
      } catch (IllegalArgumentException e) {
        throw TetherException.forImage(ErrorCode.INVALID_BASE64, index,
            "image " + index + " is not standard base64: " + e.getMessage());
      }
      try {
        return p.getBinaryValue(BASE64);
      } catch (JsonParseException e) {
        throw TetherException.forImage(ErrorCode.INVALID_BASE64, index,
            "image " + index + " is not standard base64: " + e.getOriginalMessage());
      }
    }

    static ImageFields read(JsonParser p, int index, boolean decodeData) throws IOException {
      ImageFields f = new ImageFields();
      f.index = index;
      f.all = new TokenBuffer(null, false);
      f.all.writeStartObject();
      for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
        JsonToken t = p.nextToken();
        switch (name) {
          case "media_type" -> {
            f.mediaType = t == JsonToken.VALUE_STRING ? p.getText() : null;
            f.all.writeFieldName(name);
            f.all.copyCurrentStructure(p);
          }
          case "data" -> {
            f.hasData = true;
            f.all.writeFieldName(name);
            if (decodeData && t == JsonToken.VALUE_STRING) {
              f.data = decodeInPlace(p, index);
              f.all.writeBinary(BASE64, f.data, 0, f.data.length);
            } else {
              f.all.copyCurrentStructure(p);
            }
          }
          case "blob" -> {
            f.blob = t == JsonToken.VALUE_STRING ? p.getText() : null;
            f.all.writeFieldName(name);
            f.all.copyCurrentStructure(p);
          }
          case "size" -> {
            f.all.writeFieldName(name);
            f.all.copyCurrentStructure(p);
          }
          default -> {
            f.all.writeFieldName(name);
            f.all.copyCurrentStructure(p);
          }
        }
      }
      f.all.writeEndObject();
      return f;
    }

    MediaType mediaType() {
      return MediaType.parse(mediaType == null ? "" : mediaType).orElseThrow(() -> TetherException.forImage(
          ErrorCode.UNSUPPORTED_MEDIA_TYPE, index, "image " + index + " has media_type '" + mediaType
              + "'; use image/png, image/jpeg, image/gif or image/webp"));
    }

    /** The fields other than media_type, data, blob and size, in their order. */
    void writeOthers(JsonGenerator g) throws IOException {
      try (JsonParser p = all.asParser()) {
        p.nextToken(); // the object around them
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          switch (name) {
            case "media_type", "data", "blob", "size", OFFLOADED -> p.skipChildren();
            default -> {
              g.writeFieldName(name);
              g.copyCurrentStructure(p);
            }
          }
        }
      }
    }

    /** The object unchanged. */
    void writeAsRead(JsonGenerator g) throws IOException {
      try (JsonParser p = all.asParser()) {
        p.nextToken();
        g.copyCurrentStructure(p);
      }
    }
  }
}
