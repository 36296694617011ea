package dev.tether.spring.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.tether.api.Conversation;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import dev.tether.api.Turn;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * tether to Spring AI and back: conversations in the shape both sides hold (a user turn of text
 * then images, or of text-only tool results that are not errors; an assistant turn of text, then
 * images, then tool uses) come back equal.
 */
class OursRoundTripTest {
  private static List<Part> textThenImages(Random r) {
    List<Part> out = new ArrayList<>(List.of(new Part.Text(SpringAiFixtures.text(r))));
    for (int i = r.nextInt(3); i > 0; i--) {
      out.add(new Part.Image(MediaType.PNG, ImageData.ofBytes(SpringAiFixtures.PNGS.get(r.nextInt(3)))));
    }
    return out;
  }

  static Conversation conversation(long seed) {
    Random r = new Random(seed);
    List<Turn> turns = new ArrayList<>();
    for (int t = r.nextInt(6); t > 0; t--) {
      turns.add(new Turn(Role.USER, textThenImages(r)));
      List<Part> ai = textThenImages(r);
      List<Part> results = new ArrayList<>();
      for (int c = r.nextInt(3); c > 0; c--) {
        String id = "t" + t + "-" + c;
        ai.add(new Part.ToolUse(id, "tool" + r.nextInt(3), RawJson.of("{\"k\":" + r.nextInt(9) + "}")));
        results.add(new Part.ToolResult(id, List.of(new Part.Text(SpringAiFixtures.text(r))), false));
      }
      turns.add(new Turn(Role.ASSISTANT, ai));
      if (!results.isEmpty()) {
        turns.add(new Turn(Role.USER, results));
      }
    }
    return new Conversation(r.nextBoolean() ? "" : "system " + r.nextInt(9), turns);
  }

  @Test
  void oursSurviveTheRoundTrip() {
    qt().withExamples(300).forAll(longs().all()).checkAssert(seed -> {
      Conversation c = conversation(seed);
      assertEquals(c, SpringAiMessages.toConversation(SpringAiMessages.toMessages(c)), "seed " + seed);
    });
  }
}
