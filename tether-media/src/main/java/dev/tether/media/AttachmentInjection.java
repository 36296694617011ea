package dev.tether.media;

import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.Role;
import dev.tether.api.Turn;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Option B of the attachment-vision spec: image attachments go straight into the first user
 * message, so every provider adapter (Claude, OpenAI, Ollama, Gemini) shows them to the model in
 * its own image block shape without any tool call.
 *
 * <p>Each image is appended to the first {@link Role#USER} turn as a short text label
 * ({@code Attached image: screenshot.png}) followed by its {@link Part.Image}, in catalog order;
 * when there is no user turn, a new one is put first. Stateless and thread-safe; conversations
 * are immutable, so a new one is returned.
 */
public final class AttachmentInjection {
  private AttachmentInjection() {}

  /** {@code conversation} with {@code images} added to its first user turn; itself when there are none. */
  public static Conversation intoFirstUserTurn(Conversation conversation, List<AttachmentImage> images) {
    Objects.requireNonNull(conversation, "conversation");
    Objects.requireNonNull(images, "images");
    if (images.isEmpty()) {
      return conversation;
    }
    List<Part> added = new ArrayList<>(images.size() * 2);
    for (AttachmentImage image : images) {
      added.add(new Part.Text("Attached image: " + image.attachment().fileName()));
      added.add(Part.Image.of(image.image()));
    }
    List<Turn> turns = new ArrayList<>(conversation.turns());
    for (int i = 0; i < turns.size(); i++) {
      Turn turn = turns.get(i);
      if (turn.role() == Role.USER) {
        List<Part> parts = new ArrayList<>(turn.parts());
        parts.addAll(added);
        turns.set(i, new Turn(Role.USER, parts));
        return new Conversation(conversation.systemPrompt(), turns);
      }
    }
    turns.add(0, new Turn(Role.USER, added));
    return new Conversation(conversation.systemPrompt(), turns);
  }
}
