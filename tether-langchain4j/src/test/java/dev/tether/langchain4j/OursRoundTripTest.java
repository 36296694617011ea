package dev.tether.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.tether.api.Conversation;
import dev.tether.api.Part;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import dev.tether.api.Turn;
import dev.tether.llm.ImageDetail;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * tether to LangChain4j and back: conversations in the shape both sides hold (a user turn of one tool
 * result, or of text and images only; an assistant turn of one text, then images, then tool
 * uses) come back equal, with every image's detail.
 */
class OursRoundTripTest {
  private static Part content(Random r) {
    return r.nextBoolean() ? new Part.Text(Lc4jMessages.text(r)) : LangChain4jMessages.image(Lc4jMessages.image(r), 0);
  }

  private static List<Part> contents(Random r) {
    List<Part> out = new ArrayList<>();
    for (int i = 1 + r.nextInt(3); i > 0; i--) {
      out.add(content(r));
    }
    return out;
  }

  static Conversation conversation(long seed) {
    Random r = new Random(seed);
    List<Turn> turns = new ArrayList<>();
    for (int t = r.nextInt(6); t > 0; t--) {
      turns.add(new Turn(Role.USER, contents(r)));
      List<Part> ai = new ArrayList<>(List.of(new Part.Text(Lc4jMessages.text(r))));
      if (r.nextInt(4) == 0) {
        ai.add(LangChain4jMessages.image(Lc4jMessages.image(r), 0));
      }
      List<String> ids = new ArrayList<>();
      for (int c = r.nextInt(3); c > 0; c--) {
        String id = "t" + t + "-" + c;
        ids.add(id);
        ai.add(new Part.ToolUse(id, "tool" + r.nextInt(3), RawJson.of("{\"k\":" + r.nextInt(9) + "}")));
      }
      turns.add(new Turn(Role.ASSISTANT, ai));
      for (String id : ids) {
        turns.add(new Turn(Role.USER, List.of(new Part.ToolResult(id, contents(r), r.nextInt(4) == 0))));
      }
    }
    return new Conversation(r.nextBoolean() ? "" : "system " + r.nextInt(9), turns);
  }

  @Test
  void oursSurviveTheRoundTripWithEveryImagesDetail() {
    qt().withExamples(300).forAll(longs().all()).checkAssert(seed -> {
      Conversation c = conversation(seed);
      Random r = new Random(seed);
      Map<Integer, ImageDetail> details = new HashMap<>();
      for (int i = 0; i < c.images().size(); i++) {
        details.put(i, ImageDetail.values()[r.nextInt(3)]);
      }
      MappedConversation back = LangChain4jMessages.toConversation(LangChain4jMessages.toMessages(c, details, ImageDetail.AUTO));
      assertEquals(c, back.conversation(), "seed " + seed);
      // Assistant images carry no detail in LangChain4j; every other image keeps its own.
      details.keySet().retainAll(back.imageDetails().keySet());
      assertEquals(details, back.imageDetails(), "seed " + seed);
    });
  }
}
