package dev.tether.coven.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.User;
import dev.tether.coven.internal.proto.FileAttachment;
import dev.tether.coven.internal.proto.SendMessage;
import dev.tether.images.FrameValidator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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

  private static final ObjectMapper JSON = new ObjectMapper();
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
    Limits limits = validator.limits();
    List<FileAttachment> attachments = message.getAttachmentsList();
    int imageCount = 0;
    for (FileAttachment a : attachments) {
      if (isImage(a)) {
        imageCount++;
      }
    }
    if (imageCount > limits.maxImagesPerMessage()) {
      throw TetherException.of(ErrorCode.TOO_MANY_IMAGES, "the message has " + imageCount + " image attachments; at most "
          + limits.maxImagesPerMessage() + " are allowed per message, so send the rest in another message");
    }
    List<Image> images = new ArrayList<>(imageCount);
    ArrayNode listed = JSON.createArrayNode();
    StringBuilder notForwarded = new StringBuilder();
    for (FileAttachment a : attachments) {
      ObjectNode entry = listed.addObject().put("filename", a.getFilename()).put("mime_type", a.getMimeType())
          .put("size", a.getData().size());
      if (isImage(a)) {
        images.add(image(a, images.size(), limits));
      } else {
        entry.put("forwarded", false);
        notForwarded.append("\n[attachment ").append(a.getFilename()).append(" (").append(a.getMimeType()).append(", ")
            .append(human(a.getData().size())).append(") was not forwarded: only images reach the agent]");
      }
    }
    try {
      validator.validateImages(images);
    } catch (TetherException e) {
      int index = e.imageIndex().orElse(-1);
      if (index < 0) {
        throw e;
      }
      throw TetherException.forImage(e.code(), index, "attachment " + imageName(attachments, index) + ": " + e.getMessage());
    }
    StringBuilder text = new StringBuilder();
    for (String block : injected) {
      text.append(block).append("\n\n");
    }
    text.append(message.getContent()).append(notForwarded);
    Optional<User> user = message.getSender().isEmpty()
        ? Optional.empty()
        : Optional.of(new User(message.getSender(), message.getSender()));
    Map<String, RawJson> extra = attachments.isEmpty() ? Map.of() : Map.of("attachments", raw(listed));
    Frame frame = Frame.of(session(message.getThreadId()), msgId, new Payload.UserMessage(text.toString(), images, user, extra));
    if ((long) frame.payload().size() + ENVELOPE_ALLOWANCE > limits.maxFrameBytes()) {
      throw TetherException.frameTooLarge(limits.maxFrameBytes());
    }
    return frame;
  }

  private static boolean isImage(FileAttachment a) {
    return a.getMimeType().toLowerCase(Locale.ROOT).startsWith("image/");
  }

  private static Image image(FileAttachment a, int index, Limits limits) {
    String name = a.getFilename().isEmpty() ? "(unnamed)" : a.getFilename();
    Optional<MediaType> type = MediaType.parse(a.getMimeType().toLowerCase(Locale.ROOT));
    if (type.isEmpty()) {
      throw TetherException.forImage(ErrorCode.UNSUPPORTED_MEDIA_TYPE, index, "attachment " + name + ": "
          + a.getMimeType() + " is not supported; send image/png, image/jpeg, image/gif or image/webp");
    }
    long size = a.getData().size();
    if (size > limits.maxImageBytes()) {
      // Checked before encoding: an oversized image is refused without copying it.
      throw TetherException.forImage(ErrorCode.IMAGE_TOO_LARGE, index, "attachment " + name + ": the image is "
          + human(size) + "; at most " + human(limits.maxImageBytes()) + " per image is allowed, so send a smaller one");
    }
    byte[] base64 = Base64.getEncoder().encode(a.getData().toByteArray());
    return new Image(type.get(), new String(base64, StandardCharsets.ISO_8859_1));
  }

  private static String imageName(List<FileAttachment> attachments, int imageIndex) {
    int i = 0;
    for (FileAttachment a : attachments) {
      if (isImage(a) && i++ == imageIndex) {
        return a.getFilename().isEmpty() ? "(unnamed)" : a.getFilename();
      }
    }
    return "#" + imageIndex;
  }

  /** Bytes in binary units, as the image validator words them. */
  static String human(long bytes) {
    if (bytes < 1024) {
      return bytes + " bytes";
    }
    if (bytes < (1 << 20)) {
      return String.format(Locale.ROOT, "%.1f KiB (%d bytes)", bytes / 1024.0, bytes);
    }
    return String.format(Locale.ROOT, "%.2f MiB (%d bytes)", bytes / (1024.0 * 1024), bytes);
  }

  private static RawJson raw(ArrayNode node) {
    try {
      return RawJson.ofUtf8(JSON.writeValueAsBytes(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings and numbers always serialises", e);
    }
  }
}
