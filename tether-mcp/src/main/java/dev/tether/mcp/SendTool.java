package dev.tether.mcp;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import dev.tether.images.FrameValidator;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code tether_send}: validates the arguments and every image against the limits, builds the
 * {@code user.message} on the {@code host} channel, and hands it to the {@link TetherClient}.
 * Nothing reaches the client unless every check passed. Thread-safe.
 */
final class SendTool {
  static final String NAME = "tether_send";
  private static final Set<String> ARGS = Set.of("instance", "text", "images", "session_id");
  private static final Set<String> IMAGE_FIELDS = Set.of("media_type", "data");

  private final TetherClient client;
  private final FrameValidator validator;

  SendTool(TetherClient client, FrameValidator validator) {
    this.client = Objects.requireNonNull(client, "client");
    this.validator = Objects.requireNonNull(validator, "validator");
  }

  CompletableFuture<CallToolResult> call(Map<String, Object> arguments) {
    return send(Args.of(NAME, arguments, ARGS)).thenApply(receipt -> {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("msg_id", receipt.msgId());
      body.put("session_id", receipt.sessionId());
      body.put("ingress_seq", receipt.ingressSeq());
      return ToolResults.json(body);
    });
  }

  /** The arguments {@code tether_send} takes, for a tool that sends the same way. */
  static Set<String> arguments() {
    return ARGS;
  }

  /**
   * Checks {@code instance}, {@code text}, {@code images} and {@code session_id} of {@code args}
   * and sends the message; nothing is sent when a check fails (thrown).
   */
  CompletableFuture<SendReceipt> send(Args args) {
    String instance = args.requireNonBlank("instance");
    String text = args.requireString("text");
    String sessionId = args.optString("session_id").orElse(SessionKey.DEFAULT_ID);
    if (sessionId.isEmpty()) {
      throw ToolError.invalidArguments(NAME + ": session_id must not be empty (leave it out for 'default')");
    }
    List<Image> images = images(args);
    Frame frame = validated(Frames.hostUserMessage(sessionId, text, images));
    return client.send(instance, frame);
  }

  private List<Image> images(Args args) {
    List<Object> items = args.optList("images").orElse(List.of());
    int max = validator.limits().maxImagesPerMessage();
    if (items.size() > max) {
      // Checked before any image is looked at: the count is the problem to report.
      throw TetherException.of(ErrorCode.TOO_MANY_IMAGES, "the message has " + items.size()
          + " images; at most " + max + " are allowed per message, so send the rest in another message");
    }
    List<Image> images = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      images.add(image(args, items.get(i), i));
    }
    return images;
  }

  private static Image image(Args args, Object item, int index) {
    String where = "images[" + index + "]";
    if (!(item instanceof Map<?, ?> map)) {
      throw args.wrongType(where, "an object {media_type, data}", item);
    }
    for (Object key : map.keySet()) {
      if (!IMAGE_FIELDS.contains(key)) {
        throw ToolError.invalidArguments(NAME + ": " + where + " has the unknown field '" + key
            + "'; an image is exactly {media_type, data} with inline base64 data");
      }
    }
    Object mediaType = map.get("media_type");
    Object data = map.get("data");
    if (!(mediaType instanceof String declared)) {
      throw mediaType == null
          ? ToolError.invalidArguments(NAME + ": " + where + " needs media_type (a string)")
          : args.wrongType(where + ".media_type", "a string", mediaType);
    }
    if (!(data instanceof String base64)) {
      throw data == null
          ? ToolError.invalidArguments(NAME + ": " + where + " needs data (a base64 string)")
          : args.wrongType(where + ".data", "a string", data);
    }
    MediaType type = MediaType.parse(declared).orElseThrow(() -> TetherException.forImage(
        ErrorCode.UNSUPPORTED_MEDIA_TYPE, index, "image " + index + ": media_type '" + declared
            + "' is not supported; use one of image/png, image/jpeg, image/gif or image/webp"));
    return new Image(type, base64);
  }

  /** The frame, if its images pass every rule and its encoded size is within the wire limit. */
  private Frame validated(Frame frame) {
    validator.validate(frame);
    int size = FrameCodec.standard().write(frame).length;
    if (size > validator.limits().maxFrameBytes()) {
      throw TetherException.of(ErrorCode.FRAME_TOO_LARGE, "the message is " + size
          + " bytes on the wire; the limit is " + validator.limits().maxFrameBytes()
          + " bytes, so shorten the text or send fewer or smaller images");
    }
    return frame;
  }
}
