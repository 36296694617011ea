package dev.tether.llm;

import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.Role;
import dev.tether.api.Turn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Turn shaping that several writers share. Stateless. */
final class Messages {
  private Messages() {}

  /** One provider message: a role and its parts. */
  record Message(Role role, List<Part> parts) {}

  /**
   * Consecutive turns of the same role as one message each, as Claude requires; within a user
   * message the tool results come first, as Claude also requires. Empty text parts are dropped
   * when the message has anything else; a message of empty text only stays one empty text part,
   * which {@link #requireContent} keeps from reaching providers that reject it.
   */
  static List<Message> merged(List<Turn> turns) {
    List<Message> messages = new ArrayList<>();
    List<Part> current = null;
    Role role = null;
    for (Turn turn : turns) {
      if (turn.role() != role) {
        if (current != null) {
          messages.add(message(role, current));
        }
        current = new ArrayList<>();
        role = turn.role();
      }
      current.addAll(turn.parts());
    }
    if (current != null) {
      messages.add(message(role, current));
    }
    return messages;
  }

  /**
   * Fails when a message {@link #merged} would build has nothing but empty text parts, for
   * providers that reject an empty text block (Claude: "text content blocks must be non-empty";
   * Gemini: "empty text parameter") and have no empty message form to fall back on. An empty
   * turn next to a non-empty turn of the same role is fine: it merges into that message.
   *
   * @throws IllegalArgumentException naming the turn (or run of merged turns) and the provider
   */
  static void requireContent(List<Turn> turns, Provider provider) {
    if (turns.isEmpty()) {
      return;
    }
    int first = 0;
    boolean content = false;
    for (int i = 0; i <= turns.size(); i++) {
      if (i == turns.size() || i > first && turns.get(i).role() != turns.get(first).role()) {
        if (!content) {
          String which = i - 1 == first ? "turn " + first + " (%s) holds" : "turns " + first + ".." + (i - 1) + " (%s) hold";
          throw new IllegalArgumentException(which.formatted(turns.get(first).role().name().toLowerCase(Locale.ROOT))
              + " only empty text, which " + provider.displayName()
              + " rejects as an empty message; give it text, an image or a tool part, or leave it out");
        }
        if (i == turns.size()) {
          break;
        }
        first = i;
        content = false;
      }
      for (Part part : turns.get(i).parts()) {
        content |= !(part instanceof Part.Text t && t.text().isEmpty());
      }
    }
  }

  /** One message per turn, with empty text parts dropped as in {@link #merged}. */
  static List<Message> unmerged(List<Turn> turns) {
    List<Message> messages = new ArrayList<>();
    for (Turn turn : turns) {
      messages.add(message(turn.role(), turn.parts()));
    }
    return messages;
  }

  private static Message message(Role role, List<Part> parts) {
    List<Part> results = new ArrayList<>();
    List<Part> rest = new ArrayList<>();
    for (Part part : parts) {
      if (part instanceof Part.ToolResult) {
        results.add(part);
      } else if (!(part instanceof Part.Text t && t.text().isEmpty())) {
        rest.add(part);
      }
    }
    results.addAll(rest);
    if (results.isEmpty()) {
      results.add(new Part.Text(""));
    }
    return new Message(role, List.copyOf(results));
  }

  /** Tool names by tool-use id, for formats whose tool results name the tool (Ollama, Gemini). */
  static Map<String, String> toolNames(Conversation conversation) {
    Map<String, String> names = new HashMap<>();
    for (Turn turn : conversation.turns()) {
      for (Part part : turn.parts()) {
        if (part instanceof Part.ToolUse use) {
          names.put(use.id(), use.name());
        }
      }
    }
    return names;
  }

  /** The text parts of {@code parts}, joined by blank-line-free newlines. */
  static String text(List<Part> parts) {
    StringBuilder sb = new StringBuilder();
    for (Part part : parts) {
      if (part instanceof Part.Text t && !t.text().isEmpty()) {
        if (sb.length() > 0) {
          sb.append('\n');
        }
        sb.append(t.text());
      }
    }
    return sb.toString();
  }

  /** The images directly in {@code parts}. */
  static List<Part.Image> images(List<Part> parts) {
    List<Part.Image> images = new ArrayList<>();
    for (Part part : parts) {
      if (part instanceof Part.Image image) {
        images.add(image);
      }
    }
    return images;
  }

  /** The tool uses directly in {@code parts}, in order. */
  static List<Part.ToolUse> toolUses(List<Part> parts) {
    List<Part.ToolUse> uses = new ArrayList<>();
    for (Part part : parts) {
      if (part instanceof Part.ToolUse use) {
        uses.add(use);
      }
    }
    return uses;
  }

  /**
   * The text of a tool result for formats whose tool messages take text only: its text parts,
   * "Error: " in front when the tool failed, and a pointer to the images that follow separately.
   */
  static String toolResultText(Part.ToolResult result) {
    String text = text(result.content());
    int images = images(result.content()).size();
    if (images > 0) {
      String note = "[" + images + (images == 1 ? " image follows" : " images follow") + " in the next user message]";
      text = text.isEmpty() ? note : text + "\n" + note;
    }
    return result.isError() ? "Error: " + text : text;
  }
}
