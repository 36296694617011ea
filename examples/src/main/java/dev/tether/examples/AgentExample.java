package dev.tether.examples;

import dev.tether.api.Conversation;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.Payload;
import dev.tether.api.Turn;
import dev.tether.images.FrameValidator;
import dev.tether.images.Images;
import dev.tether.llm.LlmRequest;
import dev.tether.llm.ProviderProfile;
import dev.tether.llm.RequestOptions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * An agent: it validates a user.message as it arrives on the wire and turns it into the body of a
 * Claude Messages request, which it prints.
 */
public final class AgentExample {
  /** A 1x1 PNG. */
  private static final byte[] PIXEL = Base64.getDecoder().decode(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");

  public static void main(String[] args) throws Exception {
    Image image = Images.fromBytes(PIXEL, MediaType.PNG);
    byte[] wire = FrameCodec.standard().write(Frames.hostUserMessage("demo", "What colour is this pixel?", List.of(image)));

    Frame frame = FrameValidator.standard().read(wire);
    Payload.UserMessage message = (Payload.UserMessage) frame.payloadView();
    List<Part> parts = new ArrayList<>();
    parts.add(new Part.Text(message.text()));
    for (Image each : message.images()) {
      parts.add(Part.Image.of(each));
    }
    Conversation conversation = new Conversation("Answer briefly.", List.of(Turn.user(parts.toArray(Part[]::new))));
    LlmRequest request = LlmRequest.prepare(ProviderProfile.anthropic(), conversation,
        RequestOptions.defaults().withModel("claude-sonnet-4-5"));
    request.writeTo(System.out);
    System.out.println();
  }
}
