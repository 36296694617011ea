package dev.tether.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.internal.ApiInternals;
import dev.tether.api.internal.PlainStringParser;
import dev.tether.api.internal.RawStrings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Parses payloads into their typed views and writes typed views canonically. */
final class PayloadJson {
  private PayloadJson() {}

  /** The fields every payload variant may have, read in one pass. */
  private static final class Fields {
    String text;
    String state;
    List<InlineImage> images;
    User user;
    final Map<String, RawJson> extra = new LinkedHashMap<>();
  }

  static Payload read(String type, RawJson payload) {
    if (!isModelled(type)) {
      return new Payload.Other(type, payload);
    }
    Fields f = parse(type, payload);
    if (f.images != null && FrameTypes.forbidsImages(type)) {
      throw TetherException.of(ErrorCode.IMAGES_NOT_ALLOWED,
          type + " cannot carry images; send them in assistant.done or assistant.message");
    }
    switch (type) {
      case FrameTypes.USER_MESSAGE:
        return new Payload.UserMessage(requireText(type, f), orEmpty(f.images), Optional.ofNullable(f.user), f.extra);
      case FrameTypes.ASSISTANT_DELTA:
        return new Payload.AssistantDelta(requireText(type, f), f.extra);
      case FrameTypes.ASSISTANT_DONE:
        return new Payload.AssistantDone(requireText(type, f), orEmpty(f.images), f.extra);
      case FrameTypes.ASSISTANT_MESSAGE:
        return new Payload.AssistantMessage(requireText(type, f), orEmpty(f.images), f.extra);
      case FrameTypes.STATUS_PRESENCE:
        if (f.state == null) {
          throw malformed("status.presence payload needs a string \"state\", such as \"thinking\"");
        }
        return new Payload.Presence(f.state, f.extra);
      case FrameTypes.CONTROL_CANCEL:
        return new Payload.Cancel(f.extra);
      default:
        throw new AssertionError(type);
    }
  }

  /** What {@link #read} gives for an answer, with each image's base64 left in the payload's bytes. */
  static InlineAnswer readAnswer(String type, RawJson payload) {
    if (!type.equals(FrameTypes.ASSISTANT_DONE) && !type.equals(FrameTypes.ASSISTANT_MESSAGE)) {
      throw new IllegalArgumentException("not an answer frame: " + type);
    }
    Fields f = parse(type, payload);
    return new InlineAnswer(requireText(type, f), f.images == null ? List.of() : List.copyOf(f.images));
  }

  private static boolean isModelled(String type) {
    switch (type) {
      case FrameTypes.USER_MESSAGE:
      case FrameTypes.ASSISTANT_DELTA:
      case FrameTypes.ASSISTANT_DONE:
      case FrameTypes.ASSISTANT_MESSAGE:
      case FrameTypes.STATUS_PRESENCE:
      case FrameTypes.CONTROL_CANCEL:
        return true;
      default:
        return false;
    }
  }

  private static Fields parse(String type, RawJson payload) {
    Fields f = new Fields();
    try (JsonParser p = JsonSupport.parser(payload.array, payload.offset, payload.length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw malformed(type + " payload must be a JSON object");
      }
      boolean text = !type.equals(FrameTypes.STATUS_PRESENCE) && !type.equals(FrameTypes.CONTROL_CANCEL);
      boolean images = FrameTypes.mayCarryImages(type) || FrameTypes.forbidsImages(type);
      for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
        JsonToken t = p.nextToken();
        if (text && name.equals("text")) {
          f.text = FrameReader.requireString(p, t, type + " text");
        } else if (images && name.equals("images")) {
          if (t == JsonToken.START_ARRAY && type.equals(FrameTypes.ASSISTANT_DELTA)) {
            // Rejected as a whole (IMAGES_NOT_ALLOWED), so the elements are not judged.
            p.skipChildren();
            f.images = List.of();
          } else {
            f.images = t == JsonToken.VALUE_NULL ? null : readImages(p, t, payload);
          }
        } else if (type.equals(FrameTypes.USER_MESSAGE) && name.equals("user")) {
          f.user = t == JsonToken.VALUE_NULL ? null : readUser(p, t);
        } else if (type.equals(FrameTypes.STATUS_PRESENCE) && name.equals("state")) {
          f.state = FrameReader.requireString(p, t, "status.presence state");
        } else {
          long from = p.currentTokenLocation().getByteOffset();
          if (t.isStructStart()) {
            p.skipChildren();
          } else {
            p.finishToken();
          }
          long to = p.currentLocation().getByteOffset();
          byte[] value = Arrays.copyOfRange(
              payload.array, payload.offset + (int) from, payload.offset + (int) to);
          f.extra.put(name, new RawJson(value, 0, value.length));
        }
      }
    } catch (IOException e) {
      throw JsonSupport.malformed(type + " payload is not valid JSON", e);
    }
    return f;
  }

  private static List<InlineImage> readImages(JsonParser p, JsonToken t, RawJson payload) throws IOException {
    if (t != JsonToken.START_ARRAY) {
      throw malformed("images must be an array of {\"media_type\", \"data\"} objects");
    }
    List<InlineImage> images = new ArrayList<>();
    VerifiedImages verified = payload.verifiedImages();
    for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
      int index = images.size();
      if (e != JsonToken.START_OBJECT) {
        throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, index,
            "image " + index + " must be an object {\"media_type\", \"data\"}");
      }
      String mediaType = null;
      boolean hasData = false;
      int dataStart = 0;
      int dataEnd = -1; // -1: the base64 is dataText
      String dataText = null;
      for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
        JsonToken v = p.nextToken();
        if (name.equals("media_type")) {
          requireImageString(v, index, name);
          mediaType = p.getText();
        } else if (name.equals("data")) {
          requireImageString(v, index, name);
          // the base64 stays in the payload's bytes unless the string has escapes (the parser
          // still skips it, and rejects what JSON does not allow in a string)
          int limit = payload.offset + payload.length;
          hasData = true;
          dataStart = payload.offset + (int) p.currentTokenLocation().getByteOffset() + 1;
          int proven = verified == null ? -1 : verified.end(index, dataStart - payload.offset);
          dataEnd = !(p instanceof PlainStringParser plain) ? -1
              : proven >= 0 ? plain.skipProvenString(payload.offset + proven) // the validator scanned it
              : plain.skipPlainString();
          if (dataEnd < 0) { // not printable ASCII throughout: the parser's own skip judges it
            dataEnd = RawStrings.plainEnd(payload.array, dataStart, limit);
          }
          if (dataEnd >= limit || payload.array[dataEnd] != '"') {
            dataEnd = -1;
            dataText = p.getText();
          }
        } else {
          p.skipChildren(); // ref and size are reserved: ignored; other fields are not ours
        }
      }
      if (mediaType == null) {
        throw MediaType.unsupported(null, index);
      }
      String declared = mediaType;
      MediaType type = MediaType.parse(declared).orElseThrow(() -> MediaType.unsupported(declared, index));
      if (!hasData) {
        throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, index, "image " + index
            + " has no inline \"data\" (\"ref\" is reserved; a \"blob\" ref is read after ImageRefs.inline resolves it)");
      }
      images.add(dataEnd >= 0
          ? InlineImage.plain(type, payload.array, dataStart, dataEnd - dataStart,
              verified != null && verified.covers(index, type))
          : InlineImage.text(type, dataText));
    }
    return images;
  }

  private static void requireImageString(JsonToken t, int index, String field) {
    if (t != JsonToken.VALUE_STRING) {
      throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, index, "image " + index + ": " + field + " must be a string");
    }
  }

  private static User readUser(JsonParser p, JsonToken t) throws IOException {
    if (t != JsonToken.START_OBJECT) {
      throw malformed("user must be an object {\"id\", \"name\"}");
    }
    String id = "";
    String name = "";
    for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
      JsonToken v = p.nextToken();
      if (field.equals("id")) {
        id = scalarText(p, v, "user.id");
      } else if (field.equals("name")) {
        name = scalarText(p, v, "user.name");
      } else {
        p.skipChildren();
      }
    }
    return new User(id, name);
  }

  /** Channels send user ids as strings or numbers (Telegram); both are kept as text. */
  private static String scalarText(JsonParser p, JsonToken t, String field) throws IOException {
    if (t == JsonToken.VALUE_STRING || t == JsonToken.VALUE_NUMBER_INT) {
      return p.getText();
    }
    if (t == JsonToken.VALUE_NULL) {
      return "";
    }
    throw malformed(field + " must be a string");
  }

  private static String requireText(String type, Fields f) {
    if (f.text == null) {
      throw malformed(type + " payload needs a string \"text\" (use \"\" for an image-only message)");
    }
    return f.text;
  }

  private static List<Image> orEmpty(List<InlineImage> images) {
    if (images == null) {
      return List.of();
    }
    List<Image> typed = new ArrayList<>(images.size());
    for (InlineImage image : images) {
      typed.add(image.toImage());
    }
    return typed;
  }

  private static TetherException malformed(String message) {
    return TetherException.of(ErrorCode.MALFORMED_FRAME, message);
  }

  static RawJson write(Payload payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(estimate(payload));
    try (JsonGenerator g = JsonSupport.generator(out)) {
      g.writeStartObject();
      if (payload instanceof Payload.UserMessage m) {
        g.writeStringField("text", m.text());
        writeImages(g, m.images());
        if (m.user().isPresent()) {
          g.writeObjectFieldStart("user");
          g.writeStringField("id", m.user().get().id());
          g.writeStringField("name", m.user().get().name());
          g.writeEndObject();
        }
      } else if (payload instanceof Payload.AssistantDelta d) {
        g.writeStringField("text", d.text());
      } else if (payload instanceof Payload.AssistantDone d) {
        g.writeStringField("text", d.text());
        writeImages(g, d.images());
      } else if (payload instanceof Payload.AssistantMessage m) {
        g.writeStringField("text", m.text());
        writeImages(g, m.images());
      } else if (payload instanceof Payload.Presence s) {
        g.writeStringField("state", s.state());
      } else if (payload instanceof Payload.Cancel) {
        // only extras
      } else if (payload instanceof Payload.Other o) {
        g.close();
        return o.raw();
      }
      for (Map.Entry<String, RawJson> e : payload.extra().entrySet()) {
        FrameWriter.writeRawField(g, out, e.getKey(), e.getValue());
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] bytes = out.toByteArray();
    return new RawJson(bytes, 0, bytes.length);
  }

  private static void writeImages(JsonGenerator g, List<Image> images) throws IOException {
    if (images.isEmpty()) {
      return;
    }
    g.writeArrayFieldStart("images");
    for (Image image : images) {
      g.writeStartObject();
      g.writeStringField("media_type", image.mediaType().mimeType());
      g.writeStringField("data", image.data());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static int estimate(Payload payload) {
    long size = 64;
    for (Image image : payload.images()) {
      size += image.data().length() + 48;
    }
    return (int) Math.min(size, Integer.MAX_VALUE - 8);
  }
}
