package dev.tether.media;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.json.TetherJson;
import dev.tether.images.Images;
import dev.tether.media.internal.MediaJson;
import dev.tether.media.internal.MediaText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The frames of lazy media on a tether instance, so that an agent in any VM can fetch what a
 * channel (the Telegram bridge) announced, over the instance it already talks on:
 *
 * <ul>
 *   <li>{@code user.message} (host to guest) carries, beside the placeholders in its text, the
 *       field {@code media}: an array of {@link MediaItem}s ({@link #mediaField}, {@link #mediaOf}).
 *   <li>{@value #FETCH} (guest to host; its type starts with neither {@code user.} nor
 *       {@code control.}): {@code {"ref":"tg_..."}}, on the session of the chat the media came
 *       from, with a {@code msg_id} of the agent's choosing ({@link #fetchRequest},
 *       {@link #parseFetchRequest}).
 *   <li>{@value #ANSWER} (host to guest) on the same session, carrying the request's
 *       {@code msg_id}: {@code {"ref","status":"image","mime_type","images":[{media_type,data}]}},
 *       {@code {"ref","status":"saved","mime_type","path","size"}} or
 *       {@code {"ref","status":"error","error":{"code","message"}}} ({@link #answer},
 *       {@link #parseAnswer}).
 * </ul>
 *
 * <p>Clients that do not know these types pass them through, as the wire says for every type it
 * does not name. Parsers take hostile input: any payload either parses or fails with a
 * {@link TetherException} ({@code MALFORMED_FRAME}); images are validated like any producer's.
 * Stateless and thread-safe.
 */
public final class MediaFrames {
  /** The request type, guest to host. */
  public static final String FETCH = "media.fetch";
  /** The answer type, host to guest. */
  public static final String ANSWER = "control.media";
  /** The {@code user.message} payload field holding the {@link MediaItem}s. */
  public static final String MEDIA_FIELD = "media";
  /** The most items {@link #mediaOf} reads from one message. */
  public static final int MAX_ITEMS = 64;

  private MediaFrames() {}

  /** A {@value #FETCH} request for {@code ref} on {@code session}. */
  public static Frame fetchRequest(SessionKey session, String msgId, String ref) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(msgId, "msgId");
    if (!MediaText.isToken(ref, MediaReference.MAX_ID_LENGTH)) {
      throw new IllegalArgumentException("ref must be 1 to " + MediaReference.MAX_ID_LENGTH
          + " of A-Z a-z 0-9 . _ - but was '" + MediaText.excerpt(String.valueOf(ref)) + "'");
    }
    return Frame.builder(FETCH).ts(Instant.now()).session(session).msgId(msgId).payload(json(g -> {
      g.writeStartObject();
      g.writeStringField("ref", ref);
      g.writeEndObject();
    })).build();
  }

  /**
   * The reference a {@value #FETCH} frame asks for.
   *
   * @throws TetherException {@code MALFORMED_FRAME} when the frame is of another type, has no
   *     {@code msg_id}, or its payload is not an object with a {@code ref} of 1 to 128 of
   *     {@code A-Z a-z 0-9 . _ -}
   */
  public static String parseFetchRequest(Frame frame) {
    if (!FETCH.equals(frame.type())) {
      throw malformed("a " + FETCH + " frame was expected but the type is '" + MediaText.excerpt(frame.type()) + "'");
    }
    if (frame.msgId().isEmpty() || frame.msgId().get().isEmpty()) {
      throw malformed(FETCH + " needs a msg_id, which its answer carries back");
    }
    Map<?, ?> payload = object(frame.payload(), FETCH);
    Object ref = payload.get("ref");
    if (!(ref instanceof String s) || !MediaText.isToken(s, MediaReference.MAX_ID_LENGTH)) {
      throw malformed(FETCH + " needs \"ref\": the id from a placeholder's ref:<id>, 1 to "
          + MediaReference.MAX_ID_LENGTH + " of A-Z a-z 0-9 . _ -");
    }
    return s;
  }

  /** The {@value #ANSWER} frame for {@code answer}, on the request's session and with its {@code msg_id}. */
  public static Frame answer(SessionKey session, String msgId, MediaAnswer answer) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(msgId, "msgId");
    Objects.requireNonNull(answer, "answer");
    return Frame.builder(ANSWER).ts(Instant.now()).session(session).msgId(msgId).payload(json(g -> {
      g.writeStartObject();
      g.writeStringField("ref", answer.ref());
      if (answer instanceof MediaAnswer.Fetched f) {
        g.writeStringField("status", "image");
        g.writeStringField("mime_type", f.mimeType());
        g.writeArrayFieldStart("images");
        g.writeStartObject();
        g.writeStringField("media_type", f.image().mediaType().mimeType());
        g.writeStringField("data", f.image().data());
        g.writeEndObject();
        g.writeEndArray();
      } else if (answer instanceof MediaAnswer.Saved s) {
        g.writeStringField("status", "saved");
        g.writeStringField("mime_type", s.mimeType());
        g.writeStringField("path", s.path());
        g.writeNumberField("size", s.size());
      } else if (answer instanceof MediaAnswer.Failed e) {
        g.writeStringField("status", "error");
        g.writeObjectFieldStart("error");
        g.writeStringField("code", e.code().name());
        g.writeStringField("message", e.message());
        g.writeEndObject();
      }
      g.writeEndObject();
    })).build();
  }

  /**
   * The answer a {@value #ANSWER} frame carries; its image is validated against {@code limits}.
   *
   * @throws TetherException {@code MALFORMED_FRAME} for a payload that is not a valid answer, or
   *     the image's own code ({@code MEDIA_TYPE_MISMATCH}, {@code IMAGE_TOO_LARGE}, ...)
   */
  public static MediaAnswer parseAnswer(Frame frame, Limits limits) {
    if (!ANSWER.equals(frame.type())) {
      throw malformed("a " + ANSWER + " frame was expected but the type is '" + MediaText.excerpt(frame.type()) + "'");
    }
    Map<?, ?> p = object(frame.payload(), ANSWER);
    String ref = string(p, "ref");
    String status = string(p, "status");
    switch (status) {
      case "image": {
        Object images = p.get("images");
        if (!(images instanceof List<?> list) || list.size() != 1 || !(list.get(0) instanceof Map<?, ?> image)) {
          throw malformed(ANSWER + " with status image needs \"images\": one {media_type, data}");
        }
        String declared = string(image, "media_type");
        MediaType type = MediaType.parse(declared).orElseThrow(() -> TetherException.forImage(
            ErrorCode.UNSUPPORTED_MEDIA_TYPE, 0, "image 0: media_type '" + MediaText.excerpt(declared) + "' is not supported"));
        return new MediaAnswer.Fetched(ref, mime(p), Images.of(type, string(image, "data"), limits));
      }
      case "saved": {
        Object size = p.get("size");
        if (!(size instanceof Long n) || n < 0) {
          throw malformed(ANSWER + " with status saved needs \"size\": a number of bytes");
        }
        return new MediaAnswer.Saved(ref, mime(p), string(p, "path"), n);
      }
      case "error": {
        Object error = p.get("error");
        if (!(error instanceof Map<?, ?> e)) {
          throw malformed(ANSWER + " with status error needs \"error\": {code, message}");
        }
        ErrorCode code = ErrorCode.parse(string(e, "code")).orElse(ErrorCode.INTERNAL);
        return new MediaAnswer.Failed(ref, code, string(e, "message"));
      }
      default:
        throw malformed(ANSWER + " has the unknown status '" + MediaText.excerpt(status) + "'; expected image, saved or error");
    }
  }

  /** The {@code media} field of a {@code user.message} announcing {@code items}, in order. */
  public static RawJson mediaField(List<MediaItem> items) {
    return json(g -> {
      g.writeStartArray();
      for (MediaItem item : items) {
        g.writeStartObject();
        g.writeStringField("ref", item.ref());
        g.writeStringField("kind", item.kind().wireName());
        g.writeStringField("mime_type", item.mimeType());
        if (item.fileName() != null) {
          g.writeStringField("file_name", item.fileName());
        }
        if (item.size() >= 0) {
          g.writeNumberField("size", item.size());
        }
        if (!item.caption().isEmpty()) {
          g.writeStringField("caption", item.caption());
        }
        g.writeStringField("expires_at", item.expiresAt().toString());
        g.writeEndObject();
      }
      g.writeEndArray();
    });
  }

  /**
   * The {@link MediaItem}s a {@code user.message} announces in its {@code media} field, at most
   * {@value #MAX_ITEMS}; empty when there is none. An entry that is not a valid item is left out
   * (the message itself stays readable), never guessed from the text.
   */
  public static List<MediaItem> mediaOf(Payload.UserMessage message) {
    RawJson field = message.extra().get(MEDIA_FIELD);
    if (field == null) {
      return List.of();
    }
    Object tree;
    try {
      tree = MediaJson.readTree(field.toByteArray());
    } catch (MediaJson.InvalidJsonException e) {
      return List.of();
    }
    if (!(tree instanceof List<?> entries)) {
      return List.of();
    }
    List<MediaItem> items = new ArrayList<>();
    for (Object entry : entries) {
      if (items.size() >= MAX_ITEMS) {
        break;
      }
      item(entry).ifPresent(items::add);
    }
    return List.copyOf(items);
  }

  private static Optional<MediaItem> item(Object entry) {
    if (!(entry instanceof Map<?, ?> m)) {
      return Optional.empty();
    }
    try {
      Object size = m.get("size");
      Object fileName = m.get("file_name");
      Object caption = m.get("caption");
      MediaKind kind = MediaKind.parse(m.get("kind") instanceof String k ? k : null).orElse(null);
      if (kind == null || !(m.get("ref") instanceof String ref) || !(m.get("mime_type") instanceof String mime)
          || !(m.get("expires_at") instanceof String expires)
          || (size != null && !(size instanceof Long)) || (fileName != null && !(fileName instanceof String))
          || (caption != null && !(caption instanceof String))) {
        return Optional.empty();
      }
      return Optional.of(new MediaItem(ref, kind, mime, (String) fileName, size == null ? -1 : (Long) size,
          caption == null ? "" : (String) caption, Instant.parse(expires)));
    } catch (IllegalArgumentException | NullPointerException | DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static String mime(Map<?, ?> p) {
    String mime = string(p, "mime_type");
    if (!MediaText.isMimeType(mime)) {
      throw malformed(ANSWER + " has a mime_type that is not type/subtype");
    }
    return mime;
  }

  private static Map<?, ?> object(RawJson payload, String type) {
    Object tree;
    try {
      tree = MediaJson.readTree(payload.toByteArray());
    } catch (MediaJson.InvalidJsonException e) {
      throw malformed(type + " payload is " + e.getMessage());
    }
    if (!(tree instanceof Map<?, ?> map)) {
      throw malformed(type + " payload must be a JSON object");
    }
    return map;
  }

  private static String string(Map<?, ?> object, String field) {
    Object v = object.get(field);
    if (!(v instanceof String s)) {
      throw malformed("\"" + field + "\" must be a string");
    }
    return s;
  }

  private static TetherException malformed(String sentence) {
    return TetherException.of(ErrorCode.MALFORMED_FRAME, sentence);
  }

  private interface Writer {
    void write(JsonGenerator g) throws IOException;
  }

  private static RawJson json(Writer writer) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = TetherJson.factory().createGenerator(out)) {
      writer.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return RawJson.ofUtf8(out.toByteArray());
  }
}
