package dev.tether.coven.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.UnsafeByteOperations;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.TetherException;
import dev.tether.api.internal.ApiInternals;
import dev.tether.api.json.TetherJson;
import dev.tether.coven.internal.proto.Cancelled;
import dev.tether.coven.internal.proto.Done;
import dev.tether.coven.internal.proto.FileData;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.TokenUsage;
import dev.tether.coven.internal.proto.ToolState;
import dev.tether.coven.internal.proto.ToolStateUpdate;
import dev.tether.images.FrameValidator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Turns the agent's egress frames for one request into coven {@code MessageResponse} events.
 *
 * <ul>
 *   <li>{@code assistant.delta} is a {@code text} event; {@code reasoning.delta} and
 *       {@code status.presence thinking} are {@code thinking} events.
 *   <li>{@code assistant.done} is validated again (consumers check what producers checked), then
 *       becomes the text not yet streamed (a live reader can miss a transient delta), one
 *       {@code file} event per image (media type and decoded bytes, named {@code image-N.ext}), a
 *       {@code usage} event when the payload has {@code usage}, and finally {@code done}; with
 *       {@code "cancelled": true} it ends in {@code cancelled} instead.
 *   <li>{@code error} ({@code {code, message}}) ends the request in {@code error}.
 *   <li>{@code event.usage} ({@code {input_tokens, output_tokens, cache_read_tokens,
 *       cache_write_tokens, thinking_tokens}}) is a {@code usage} event; {@code event.tool_state}
 *       ({@code {id, state, detail?}}, state as in the proto without its prefix, such as
 *       {@code running}) is a {@code tool_state} event.
 * </ul>
 *
 * <p>Other frame types are skipped. After the terminal event every further frame is ignored.
 * Not thread-safe: one request's frames are translated in order by one caller at a time.
 */
public final class ReplyTranslator {
  /** The tether frame type for token usage reports. */
  public static final String EVENT_USAGE = "event.usage";
  /** The tether frame type for tool lifecycle reports. */
  public static final String EVENT_TOOL_STATE = "event.tool_state";

  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());

  private final String requestId;
  private final FrameValidator validator;
  private final StringBuilder streamed = new StringBuilder();
  private boolean finished;

  public ReplyTranslator(String requestId, FrameValidator validator) {
    this.requestId = Objects.requireNonNull(requestId, "requestId");
    this.validator = Objects.requireNonNull(validator, "validator");
  }

  /** Whether a terminal event has been produced. */
  public boolean finished() {
    return finished;
  }

  /** The events for {@code frame}, in order; empty for frames that carry nothing for coven. */
  public List<MessageResponse> onFrame(Frame frame) {
    if (finished) {
      return List.of();
    }
    try {
      return translate(frame);
    } catch (TetherException e) {
      finished = true;
      return List.of(error(requestId, e.code() + ": the agent's " + frame.type() + " was refused: " + e.getMessage()));
    }
  }

  private List<MessageResponse> translate(Frame frame) {
    switch (frame.type()) {
      case FrameTypes.ASSISTANT_DELTA: {
        String text = ((Payload.AssistantDelta) frame.payloadView()).text();
        streamed.append(text);
        return text.isEmpty() ? List.of() : List.of(base().setText(text).build());
      }
      case FrameTypes.REASONING_DELTA: {
        String text = field(frame.payload(), "text");
        return text == null || text.isEmpty() ? List.of() : List.of(base().setThinking(text).build());
      }
      case FrameTypes.STATUS_PRESENCE: {
        String state = ((Payload.Presence) frame.payloadView()).state();
        return Payload.Presence.THINKING.equals(state) ? List.of(base().setThinking(state).build()) : List.of();
      }
      case FrameTypes.ASSISTANT_DONE:
        validator.validate(frame);
        return done(frame.payload());
      case FrameTypes.ERROR: {
        finished = true;
        String code = field(frame.payload(), "code");
        String message = field(frame.payload(), "message");
        return List.of(error(requestId, (code == null ? "AGENT_ERROR" : code) + ": "
            + (message == null ? "the agent reported an error" : message)));
      }
      case EVENT_USAGE:
        return List.of(base().setUsage(usage(tree(frame.payload()))).build());
      case EVENT_TOOL_STATE:
        return toolState(tree(frame.payload()));
      default:
        return List.of();
    }
  }

  /**
   * The events for a validated {@code assistant.done}. Read with a streaming parser over the
   * payload's own bytes, so that each image's base64 is decoded in place, straight into the array
   * its {@code FileData} wraps: never copied into a parser buffer, never held as a String.
   */
  private List<MessageResponse> done(RawJson payload) {
    finished = true;
    String text = "";
    boolean cancelled = false;
    JsonNode usage = null;
    List<MessageResponse> files = new ArrayList<>(4);
    byte[] bytes = ApiInternals.array(payload);
    int base = ApiInternals.offset(payload);
    try (JsonParser p = JSON.getFactory().createParser(bytes, base, payload.size())) {
      p.nextToken(); // the validator checked that the payload is one object
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        switch (name) {
          case "text" -> text = p.getText();
          case "cancelled" -> cancelled = value == JsonToken.VALUE_TRUE;
          case "usage" -> usage = value == JsonToken.START_OBJECT ? JSON.readTree(p) : null;
          case "images" -> {
            while (p.nextToken() == JsonToken.START_OBJECT) {
              files.add(file(p, bytes, base, files.size()));
            }
          }
          default -> p.skipChildren();
        }
      }
    } catch (IOException e) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, "the answer could not be read: " + e.getMessage(), e);
    }
    List<MessageResponse> out = new ArrayList<>(files.size() + 3);
    if (text.length() > streamed.length() && text.startsWith(streamed.toString())) {
      out.add(base().setText(text.substring(streamed.length())).build());
    }
    out.addAll(files);
    if (usage != null) {
      out.add(base().setUsage(usage(usage)).build());
    }
    out.add(cancelled
        ? cancelled(requestId, "cancelled by the agent")
        : base().setDone(Done.newBuilder().setFullResponse(text)).build());
    return out;
  }

  /** One image object, the parser on its START_OBJECT, over {@code bytes} from {@code base}. */
  private MessageResponse file(JsonParser p, byte[] bytes, int base, int index) throws IOException {
    MediaType type = null;
    byte[] data = null;
    JsonToken token = p.nextToken();
    while (token == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      if (field.equals("data") && value == JsonToken.VALUE_STRING) {
        // The validator passed this frame, so the string is plain base64 (no escapes): decode its
        // bytes where they are. The parser's skip over the string is the one pass that finds its end.
        int start = base + (int) p.currentTokenLocation().getByteOffset() + 1;
        token = p.nextToken();
        int end = base + (int) p.currentTokenLocation().getByteOffset();
        while (bytes[end - 1] != '"') {
          end--; // back over the whitespace and comma before the next token
        }
        try {
          data = decode(bytes, start, end - 1 - start);
        } catch (IllegalArgumentException e) {
          throw TetherException.forImage(ErrorCode.INVALID_BASE64, index, "image " + index + ": " + e.getMessage());
        }
        continue;
      }
      if (field.equals("media_type")) {
        type = MediaType.of(p.getText());
      } else {
        p.skipChildren();
      }
      token = p.nextToken();
    }
    if (type == null || data == null) {
      throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, index, "image " + index + " has no media_type or data");
    }
    return base().setFile(FileData.newBuilder()
        .setFilename("image-" + (index + 1) + "." + type.extension())
        .setMimeType(type.mimeType())
        .setData(UnsafeByteOperations.unsafeWrap(data))) // the array is ours and never written again
        .build();
  }

  /** The JDK decoder over {@code bytes[offset, offset + length)}, into an exactly sized array. */
  private static byte[] decode(byte[] bytes, int offset, int length) {
    ByteBuffer decoded = Base64.getDecoder().decode(ByteBuffer.wrap(bytes, offset, length));
    byte[] array = decoded.array();
    return decoded.remaining() == array.length ? array : Arrays.copyOf(array, decoded.remaining());
  }

  private List<MessageResponse> toolState(JsonNode node) {
    String id = node.path("id").asText("");
    String state = node.path("state").asText("");
    ToolState parsed;
    try {
      parsed = ToolState.valueOf("TOOL_STATE_" + state.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      parsed = ToolState.TOOL_STATE_UNSPECIFIED;
    }
    ToolStateUpdate.Builder update = ToolStateUpdate.newBuilder().setId(id).setState(parsed);
    if (node.hasNonNull("detail")) {
      update.setDetail(node.get("detail").asText());
    }
    return List.of(base().setToolState(update).build());
  }

  private static TokenUsage usage(JsonNode node) {
    return TokenUsage.newBuilder()
        .setInputTokens(node.path("input_tokens").asInt(0))
        .setOutputTokens(node.path("output_tokens").asInt(0))
        .setCacheReadTokens(node.path("cache_read_tokens").asInt(0))
        .setCacheWriteTokens(node.path("cache_write_tokens").asInt(0))
        .setThinkingTokens(node.path("thinking_tokens").asInt(0))
        .build();
  }

  private MessageResponse.Builder base() {
    return MessageResponse.newBuilder().setRequestId(requestId);
  }

  /** A terminal {@code error} event. */
  public static MessageResponse error(String requestId, String message) {
    return MessageResponse.newBuilder().setRequestId(requestId).setError(message).build();
  }

  /** A terminal {@code cancelled} event. */
  public static MessageResponse cancelled(String requestId, String reason) {
    return MessageResponse.newBuilder().setRequestId(requestId).setCancelled(Cancelled.newBuilder().setReason(reason)).build();
  }

  /** Whether {@code response} ends its request. */
  public static boolean isTerminal(MessageResponse response) {
    return switch (response.getEventCase()) {
      case DONE, ERROR, CANCELLED -> true;
      default -> false;
    };
  }

  private static JsonNode tree(RawJson json) {
    try (var in = json.openStream()) {
      JsonNode node = JSON.readTree(in);
      return node == null ? JSON.createObjectNode() : node;
    } catch (IOException e) {
      // The store only holds frames that parsed; a payload that does not is a bug upstream.
      return JSON.createObjectNode();
    }
  }

  private static String field(RawJson json, String name) {
    JsonNode value = tree(json).get(name);
    return value == null || value.isNull() ? null : value.asText();
  }
}
