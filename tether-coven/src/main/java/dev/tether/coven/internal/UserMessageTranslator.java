package dev.tether.coven.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.internal.ApiInternals;
import dev.tether.api.json.TetherJson;
import dev.tether.client.AttachmentInfo;
import dev.tether.coven.internal.proto.FileAttachment;
import dev.tether.coven.internal.proto.SendMessage;
import dev.tether.images.ByteSizes;
import dev.tether.images.FrameValidator;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns a gateway's {@code SendMessage} into the tether {@code user.message} the agent reads.
 *
 * <p>The frame's session is channel {@value #CHANNEL}, id = {@code thread_id} (or
 * {@code default} when the gateway sends none), so each coven thread is one tether session. The
 * text is the message's {@code content}, after the context injected since the last turn. Every
 * attachment whose MIME type starts with {@code image/} becomes an inline image and is checked
 * like every other producer's: one of the four media types, the bytes' signature against the
 * declared type, the per-image, per-frame and count limits ({@link FrameValidator}). Other
 * attachments are named in the text, since a tether frame carries only images. The payload
 * field {@code attachments} lists every attachment's {@code filename}, {@code mime_type} and
 * {@code size} in order, so an agent can name what it got.
 *
 * <p>Bad attachments are a {@link TetherException} with the tether code, the image index and a
 * sentence naming the file. Immutable and thread-safe.
 */
public final class UserMessageTranslator {
  /** The tether session channel of coven threads. */
  public static final String CHANNEL = "coven";

  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());
  private static final int ENVELOPE_ALLOWANCE = 4096;

  private final FrameValidator validator;

  public UserMessageTranslator(FrameValidator validator) {
    this.validator = Objects.requireNonNull(validator, "validator");
  }

  /** The session a thread maps to. */
  public static SessionKey session(String threadId) {
    return new SessionKey(CHANNEL, threadId == null || threadId.isEmpty() ? "default" : threadId);
  }

  /**
   * The {@code user.message} for {@code message}, with {@code msgId}, preceded by {@code injected}
   * context blocks.
   *
   * @throws TetherException when an attachment or the whole frame breaks a rule or limit
   */
  public Frame toFrame(SendMessage message, String msgId, List<String> injected) {
    return toFrame(message, msgId, injected, Map.of());
  }

  /**
   * As {@link #toFrame(SendMessage, String, List)}, with the attachments already stored on the host
   * ({@code stored}, by index in the message): each is named in the text as
   * {@code [Attachment: name (size bytes, type)]} and its payload entry carries the stored
   * {@code name} instead of {@code "forwarded": false}.
   */
  public Frame toFrame(SendMessage message, String msgId, List<String> injected,
      Map<Integer, AttachmentInfo> stored) {
    Limits limits = validator.limits();
    List<FileAttachment> attachments = message.getAttachmentsList();
    List<FileAttachment> images = new ArrayList<>();
    for (FileAttachment a : attachments) {
      if (isImage(a)) {
        images.add(a);
      }
    }
    if (images.size() > limits.maxImagesPerMessage()) {
      throw TetherException.of(ErrorCode.TOO_MANY_IMAGES, "the message has " + images.size() + " image attachments; at most "
          + limits.maxImagesPerMessage() + " are allowed per message, so send the rest in another message");
    }
    List<MediaType> types = new ArrayList<>(images.size());
    for (int i = 0; i < images.size(); i++) {
      types.add(checkBeforeEncoding(images.get(i), i, limits));
    }
    ArrayNode listed = JSON.createArrayNode();
    StringBuilder notForwarded = new StringBuilder();
    for (int i = 0; i < attachments.size(); i++) {
      FileAttachment a = attachments.get(i);
      ObjectNode entry = listed.addObject().put("filename", a.getFilename()).put("mime_type", a.getMimeType())
          .put("size", a.getData().size());
      AttachmentInfo kept = stored.get(i);
      if (kept != null) {
        entry.put("name", kept.name());
        notForwarded.append('\n').append(kept.notice());
      } else if (!isImage(a)) {
        entry.put("forwarded", false);
        notForwarded.append("\n[attachment ").append(a.getFilename()).append(" (").append(a.getMimeType()).append(", ")
            .append(ByteSizes.binaryWithBytes(a.getData().size())).append(") was not forwarded: only images reach the agent]");
      }
    }
    StringBuilder text = new StringBuilder();
    for (String block : injected) {
      text.append(block).append("\n\n");
    }
    text.append(message.getContent()).append(notForwarded);
    RawJson payload = payload(text.toString(), images, types, message.getSender(), attachments.isEmpty() ? null : listed);
    if ((long) payload.size() + ENVELOPE_ALLOWANCE > limits.maxFrameBytes()) {
      throw TetherException.frameTooLarge(limits.maxFrameBytes());
    }
    try {
      validator.validatePayload(FrameTypes.USER_MESSAGE, payload);
    } catch (TetherException e) {
      int index = e.imageIndex().orElse(-1);
      if (index < 0) {
        throw e;
      }
      throw TetherException.forImage(e.code(), index, "attachment " + name(images.get(index)) + ": " + e.getMessage());
    }
    return Frame.builder(FrameTypes.USER_MESSAGE).version(Frame.VERSION).ts(Instant.now())
        .session(session(message.getThreadId())).msgId(msgId).payload(payload).build();
  }

  /**
   * The {@code user.message} payload, written straight into one exactly sized array: each image's
   * base64 is encoded from the attachment's bytes into its place, so the 20 MiB of a full message
   * are neither copied into strings nor escaped (base64 needs no escaping). The validator then
   * checks the result like any other producer's frame.
   */
  private static RawJson payload(String text, List<FileAttachment> images, List<MediaType> types, String sender, ArrayNode listed) {
    byte[] head = concat("{\"text\":", quote(text));
    byte[] tail;
    try {
      StringBuilder t = new StringBuilder();
      if (!sender.isEmpty()) {
        String who = new String(quote(sender), StandardCharsets.UTF_8);
        t.append(",\"user\":{\"id\":").append(who).append(",\"name\":").append(who).append('}');
      }
      if (listed != null) {
        t.append(",\"attachments\":").append(JSON.writeValueAsString(listed));
      }
      t.append('}');
      tail = t.toString().getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings and numbers always serialises", e);
    }
    long size = head.length + tail.length;
    byte[][] prefixes = new byte[images.size()][];
    for (int i = 0; i < images.size(); i++) {
      prefixes[i] = ((i == 0 ? ",\"images\":[" : ",") + "{\"media_type\":\"" + types.get(i).mimeType() + "\",\"data\":\"")
          .getBytes(StandardCharsets.US_ASCII);
      size += prefixes[i].length + 4L * ((images.get(i).getData().size() + 2) / 3) + 2; // base64, then "}
    }
    size += images.isEmpty() ? 0 : 1; // ]
    if (size > Integer.MAX_VALUE - 8) {
      throw TetherException.frameTooLarge(Limits.MAX_FRAME_BYTES);
    }
    ArraySink out = new ArraySink((int) size);
    out.write(head);
    byte[] src = new byte[CHUNK];
    byte[] dst = new byte[CHUNK / 3 * 4];
    for (int i = 0; i < images.size(); i++) {
      out.write(prefixes[i]);
      out.base64(images.get(i).getData(), src, dst);
      out.write(QUOTE_BRACE);
    }
    if (!images.isEmpty()) {
      out.write(']');
    }
    out.write(tail);
    return out.toRawJson();
  }

  private static final byte[] QUOTE_BRACE = {'"', '}'};
  /** Attachment bytes per encoder call: a multiple of 3, so the chunks' base64 joins without padding. */
  private static final int CHUNK = 3 * 16 * 1024;

  private static byte[] quote(String s) {
    byte[] inner = JsonStringEncoder.getInstance().quoteAsUTF8(s);
    byte[] out = new byte[inner.length + 2];
    out[0] = '"';
    System.arraycopy(inner, 0, out, 1, inner.length);
    out[out.length - 1] = '"';
    return out;
  }

  private static byte[] concat(String ascii, byte[] rest) {
    byte[] a = ascii.getBytes(StandardCharsets.US_ASCII);
    byte[] out = Arrays.copyOf(a, a.length + rest.length);
    System.arraycopy(rest, 0, out, a.length, rest.length);
    return out;
  }

  /** One array of known size, filled front to back; never grows, never copies. */
  private static final class ArraySink {
    private final byte[] buf;
    private int pos;

    ArraySink(int size) {
      this.buf = new byte[size];
    }

    void write(int b) {
      buf[pos++] = (byte) b;
    }

    void write(byte[] b) {
      write(b, 0, b.length);
    }

    void write(byte[] b, int off, int len) {
      System.arraycopy(b, off, buf, pos, len);
      pos += len;
    }

    /**
     * Appends the base64 of {@code data}, encoded chunk by chunk with the JDK's block encoder
     * ({@code src} and {@code dst} are the chunk buffers): neither {@code ByteString.writeTo},
     * which hands a stream a copy of the whole attachment, nor the encoder's stream wrapper,
     * which encodes without the block encoder.
     */
    void base64(ByteString data, byte[] src, byte[] dst) {
      Base64.Encoder encoder = Base64.getEncoder();
      int size = data.size();
      for (int from = 0; from < size; from += src.length) {
        int n = Math.min(src.length, size - from);
        data.copyTo(src, from, 0, n);
        int encoded = n == src.length ? encoder.encode(src, dst) : encoder.encode(Arrays.copyOf(src, n), dst);
        write(dst, 0, encoded);
      }
    }

    RawJson toRawJson() {
      if (pos != buf.length) {
        throw new IllegalStateException("payload size computed as " + buf.length + " but " + pos + " bytes were written");
      }
      // Ours alone and never written again; toFrame has the validator check it (strict JSON
      // included) before the frame exists, so neither a copy nor a second parse is needed.
      return ApiInternals.wrapTrusted(buf, 0, buf.length);
    }
  }

  static boolean isImage(FileAttachment a) {
    return a.getMimeType().toLowerCase(Locale.ROOT).startsWith("image/");
  }

  /** The media type, and the size checked before any work: an oversized image is refused without copying it. */
  private static MediaType checkBeforeEncoding(FileAttachment a, int index, Limits limits) {
    Optional<MediaType> type = MediaType.parse(a.getMimeType().toLowerCase(Locale.ROOT));
    if (type.isEmpty()) {
      throw TetherException.forImage(ErrorCode.UNSUPPORTED_MEDIA_TYPE, index, "attachment " + name(a) + ": "
          + a.getMimeType() + " is not supported; send image/png, image/jpeg, image/gif or image/webp");
    }
    long size = a.getData().size();
    if (size > limits.maxImageBytes()) {
      throw TetherException.forImage(ErrorCode.IMAGE_TOO_LARGE, index, "attachment " + name(a) + ": the image is "
          + ByteSizes.binaryWithBytes(size) + "; at most " + ByteSizes.binaryWithBytes(limits.maxImageBytes()) + " per image is allowed, so send a smaller one");
    }
    return type.get();
  }

  private static String name(FileAttachment a) {
    return a.getFilename().isEmpty() ? "(unnamed)" : a.getFilename();
  }
}
