package dev.tether.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Images as blob refs beside inline base64: the reference system's form
 * {@code {"media_type":"image/png","blob":"<sha256-hex>.png","size":N}}, whose bytes live in a
 * content-addressed blob store (for the reference daemon: {@code {workspace}/.aegis/blobs/{key}}).
 *
 * <p>An image object carries exactly one of {@code data} and {@code blob}. Consumers that need the
 * bytes (model adapters, MCP results, the demo agent) call {@link #inline} with a
 * {@link BlobReader} first ({@link #reader} reads from a {@link BlobStore}); producers that keep
 * their ring small call {@link #toRefs} with a {@link BlobWriter}. Both rewrite only the {@code images} array of the payload and copy every
 * other field's JSON as it was; a rewritten image object holds exactly the canonical fields.
 *
 * <p>Keys are checked against {@link #KEY} before a reader or writer sees them, so a reader can
 * build a path from a key without further checks. Stateless and thread-safe.
 */
public final class ImageRefs {
  /** The blob key: 64 lowercase hex digits of the SHA-256 of the bytes, a dot, the extension. */
  public static final Pattern KEY = Pattern.compile("[a-f0-9]{64}\\.(png|jpg|gif|webp)");

  /** Reads the bytes of a blob; a missing blob is a {@link NoSuchFileException}. */
  @FunctionalInterface
  public interface BlobReader {
    byte[] read(Ref ref) throws IOException;
  }

  /** Stores image bytes and returns their key. */
  @FunctionalInterface
  public interface BlobWriter {
    String write(byte[] bytes, MediaType mediaType) throws IOException;
  }

  /**
   * One blob ref of a payload.
   *
   * @param index the image's position in {@code images}
   * @param mediaType the declared media type
   * @param key the blob key, already matching {@link #KEY} and the media type's extension
   * @param size the declared size, or -1 when the ref has none
   */
  public record Ref(int index, MediaType mediaType, String key, long size) {
    public Ref {
      Objects.requireNonNull(mediaType, "mediaType");
      Objects.requireNonNull(key, "key");
    }
  }

  private ImageRefs() {}

  /**
   * A reader of {@code blobs}: the blob a ref names, read by key (so verified against it, as the
   * store's contract says), and refused with {@code INVALID_BLOB_REF} naming the image when its
   * size is not the size the ref declares. A missing blob stays a {@link NoSuchFileException}.
   * The bytes are not otherwise checked: pass the inlined frame through the validator.
   */
  public static BlobReader reader(BlobStore blobs) {
    Objects.requireNonNull(blobs, "blobs");
    return ref -> {
      byte[] bytes = blobs.get(BlobKey.of(ref.key()));
      if (ref.size() >= 0 && ref.size() != bytes.length) {
        int i = ref.index();
        throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, i, "image " + i + " declares size " + ref.size()
            + " but blob " + ref.key() + " is " + bytes.length + " bytes");
      }
      return bytes;
    };
  }

  /** The blob key of {@code bytes} stored as {@code mediaType}: their SHA-256 in lowercase hex, a dot, the extension. */
  public static String keyFor(byte[] bytes, MediaType mediaType) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(mediaType, "mediaType");
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      return HexFormat.of().formatHex(digest) + "." + mediaType.extension();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** Whether {@code key} is a well-formed blob key for {@code mediaType}. */
  public static boolean isKeyFor(String key, MediaType mediaType) {
    return key != null && KEY.matcher(key).matches() && key.endsWith("." + mediaType.extension());
  }

  /**
   * The blob refs of a frame's payload, in image order; empty when it has none or no images.
   *
   * @throws TetherException {@code MALFORMED_FRAME} when an image has both or neither of
   *     {@code data} and {@code blob}, or a field of the wrong type; {@code INVALID_BLOB_REF} when a
   *     key is not a blob key for its media type; {@code UNSUPPORTED_MEDIA_TYPE} for another type
   */
  public static List<Ref> refs(Frame frame) {
    List<Ref> refs = new ArrayList<>();
    scan(frame, (image, g) -> {
      if (image.key != null) {
        refs.add(image.ref());
      }
    });
    return List.copyOf(refs);
  }

  /** Whether any image of the frame is a blob ref (see {@link #refs} for the errors). */
  public static boolean hasRefs(Frame frame) {
    return !refs(frame).isEmpty();
  }

  /**
   * The frame with every blob ref replaced by inline {@code {media_type, data}} read through
   * {@code reader}; the frame itself when it has no refs. The bytes are not validated here: pass
   * the result through the validator like any received frame.
   *
   * @throws TetherException as {@link #refs}, and {@code BLOB_NOT_FOUND} naming the image when the
   *     reader finds no blob
   * @throws IOException when the reader fails otherwise
   */
  public static Frame inline(Frame frame, BlobReader reader) throws IOException {
    Objects.requireNonNull(reader, "reader");
    if (!hasRefs(frame)) {
      return frame;
    }
    return rewrite(frame, (image, g) -> {
      if (image.key == null) {
        image.writeInline(g, image.data);
        return;
      }
      byte[] bytes;
      try {
        bytes = reader.read(image.ref());
      } catch (NoSuchFileException e) {
        throw TetherException.forImage(ErrorCode.BLOB_NOT_FOUND, image.index,
            "image " + image.index + " names blob " + image.key + ", which does not exist (upload it first: POST /v1/instances/{id}/blob)");
      }
      image.writeInline(g, Base64.getEncoder().encodeToString(bytes));
    });
  }

  /**
   * The frame with every inline image stored through {@code writer} and replaced by a ref
   * {@code {media_type, blob, size}}; the frame itself when it has no inline images.
   *
   * @throws TetherException {@code INVALID_BASE64} when inline data does not decode
   * @throws IOException when the writer fails
   */
  public static Frame toRefs(Frame frame, BlobWriter writer) throws IOException {
    Objects.requireNonNull(writer, "writer");
    boolean[] anyInline = {false};
    scan(frame, (image, g) -> anyInline[0] |= image.key == null);
    if (!anyInline[0]) {
      return frame;
    }
    return rewrite(frame, (image, g) -> {
      if (image.key != null) {
        image.writeRef(g, image.key, image.size);
        return;
      }
      byte[] bytes;
      try {
        bytes = Base64.getDecoder().decode(image.data);
      } catch (IllegalArgumentException e) {
        throw TetherException.forImage(ErrorCode.INVALID_BASE64, image.index, "image " + image.index + ": data is not base64");
      }
      String key = writer.write(bytes, image.mediaType);
      if (!isKeyFor(key, image.mediaType)) {
        throw new IllegalStateException("the blob writer returned '" + key + "', not a blob key for " + image.mediaType);
      }
      image.writeRef(g, key, bytes.length);
    });
  }

  // ---------------------------------------------------------------------------------------------

  private interface ImageAction {
    void apply(ImageObject image, JsonGenerator g) throws IOException;
  }

  /** The fields of one image object that matter here. */
  private static final class ImageObject {
    int index;
    MediaType mediaType;
    String data;
    String key;
    long size = -1;

    Ref ref() {
      return new Ref(index, mediaType, key, size);
    }

    void writeInline(JsonGenerator g, String base64) throws IOException {
      g.writeStartObject();
      g.writeStringField("media_type", mediaType.mimeType());
      g.writeStringField("data", base64);
      g.writeEndObject();
    }

    void writeRef(JsonGenerator g, String blob, long bytes) throws IOException {
      g.writeStartObject();
      g.writeStringField("media_type", mediaType.mimeType());
      g.writeStringField("blob", blob);
      if (bytes >= 0) {
        g.writeNumberField("size", bytes);
      }
      g.writeEndObject();
    }
  }

  private static void scan(Frame frame, ImageAction action) {
    try {
      walk(frame, action, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Frame rewrite(Frame frame, ImageAction action) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, frame.payload().size()));
    try (JsonGenerator g = JsonSupport.generator(out)) {
      walk(frame, action, g);
    }
    return frame.toBuilder().payload(RawJson.ofUtf8(out.toByteArray())).build();
  }

  /**
   * Walks the payload object; with a generator, copies everything and lets {@code action} write
   * each image; without one, only reads the images.
   */
  private static void walk(Frame frame, ImageAction action, JsonGenerator g) throws IOException {
    if (!frame.hasPayload()) {
      if (g != null) {
        g.writeStartObject();
        g.writeEndObject();
      }
      return;
    }
    RawJson payload = frame.payload();
    // Read in place (RawJson is immutable): a 27 MB payload is neither copied nor, when only
    // scanning, are its base64 strings materialized (a scan must not cost the heap twice the frame).
    try (JsonParser p = JsonSupport.parser(payload.array, payload.offset, payload.length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw TetherException.of(ErrorCode.MALFORMED_FRAME, "payload must be a JSON object");
      }
      if (g != null) {
        g.writeStartObject();
      }
      for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
        JsonToken t = p.nextToken();
        if (name.equals("images") && t == JsonToken.START_ARRAY) {
          if (g != null) {
            g.writeArrayFieldStart("images");
          }
          int index = 0;
          while (p.nextToken() != JsonToken.END_ARRAY) {
            ImageObject image = readImage(p, index++, g != null);
            action.apply(image, g);
          }
          if (g != null) {
            g.writeEndArray();
          }
        } else if (g != null) {
          g.writeFieldName(name);
          g.copyCurrentStructure(p);
        } else {
          p.skipChildren();
        }
      }
      if (g != null) {
        g.writeEndObject();
      }
    } catch (JsonProcessingException e) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, "payload is not valid JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * Reads one image object; with {@code keepData} false the {@code data} string is checked to be a
   * string but not read (the parser skips it), and {@code data} is set to the empty string.
   */
  private static ImageObject readImage(JsonParser p, int index, boolean keepData) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, index, "image " + index + " must be an object");
    }
    ImageObject image = new ImageObject();
    image.index = index;
    String declared = null;
    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      JsonToken t = p.nextToken();
      switch (name) {
        case "media_type" -> declared = string(p, t, index, name);
        case "data" -> image.data = keepData ? string(p, t, index, name) : stringUnread(t, index, name);
        case "blob" -> image.key = string(p, t, index, name);
        case "size" -> {
          if (t != JsonToken.VALUE_NUMBER_INT || p.getLongValue() < 0) {
            throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, index, "image " + index + ": size must be a non-negative integer");
          }
          image.size = p.getLongValue();
        }
        default -> p.skipChildren();
      }
    }
    if ((image.data == null) == (image.key == null)) {
      throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, index,
          "image " + index + " must have exactly one of \"data\" (inline base64) and \"blob\" (a blob key)");
    }
    if (declared == null) {
      throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, index, "image " + index + " has no media_type");
    }
    String mediaType = declared;
    image.mediaType = MediaType.parse(mediaType).orElseThrow(() -> TetherException.forImage(ErrorCode.UNSUPPORTED_MEDIA_TYPE, index,
        "image " + index + ": media_type '" + mediaType + "' is not one of image/png, image/jpeg, image/gif, image/webp"));
    if (image.key != null && !isKeyFor(image.key, image.mediaType)) {
      throw TetherException.forImage(ErrorCode.INVALID_BLOB_REF, index, "image " + index + ": blob '" + printable(image.key)
          + "' is not a blob key for " + image.mediaType.mimeType() + " (64 lowercase hex digits of the SHA-256, then ."
          + image.mediaType.extension() + ")");
    }
    return image;
  }

  private static String stringUnread(JsonToken t, int index, String field) {
    if (t != JsonToken.VALUE_STRING) {
      throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, index, "image " + index + ": " + field + " must be a string");
    }
    return "";
  }

  private static String string(JsonParser p, JsonToken t, int index, String field) throws IOException {
    if (t != JsonToken.VALUE_STRING) {
      throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, index, "image " + index + ": " + field + " must be a string");
    }
    return p.getText();
  }

  private static String printable(String s) {
    String cut = s.length() > 80 ? s.substring(0, 80) + "..." : s;
    StringBuilder b = new StringBuilder(cut.length());
    cut.codePoints().forEach(c -> b.append(c < 0x20 || c == 0x7f ? '?' : (char) c));
    return b.toString();
  }
}
