package dev.tether.llm;

import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.Role;
import dev.tether.api.Turn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Turn shaping that several writers share. Stateless. */
final class Messages {
  private Messages() {}

  /** One provider message: a role and its parts. */
  record Message(Role role, List<Part> parts) {}

  /**
   * Consecutive turns of the same role as one message each, as Claude requires; within a user
   * message the tool results come first, as Claude also requires. Empty text parts are dropped
   * when the message has anything else.
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
