package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.api.Conversation;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.Turn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;

class SessionLimitsPropertiesTest {
  private static final AtomicInteger RUN = new AtomicInteger();

  @TempDir
  static Path temp;

  /** A directory of its own: every generated example starts with no sessions and no blobs. */
  private static Path freshRoot() {
    try {
      return Files.createDirectory(temp.resolve("run-" + RUN.incrementAndGet()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A line loads exactly when it is within the line limit; the lines around it always load. */
  @Test
  void load_keepsALineExactlyWhenItFitsTheLimit() {
    qt().withExamples(100).forAll(integers().between(128, 4096), integers().between(-3, 3)).checkAssert((limit, delta) -> {
      try {
        Path root = freshRoot();
        SessionTurn before = Fixtures.user("before");
        SessionTurn after = Fixtures.assistant("after");
        String empty = new String(SessionLineCodec.write(Fixtures.user("")), java.nio.charset.StandardCharsets.UTF_8);
        int textLength = Math.max(0, limit + delta - empty.length());
        SessionTurn middle = Fixtures.user("x".repeat(textLength));
        int middleBytes = SessionLineCodec.write(middle).length;
        Path dir = root.resolve("sessions");
        Files.createDirectories(dir);
        SessionKey key = SessionKey.host("p");
        Path file = dir.resolve(SessionFileNames.fileName(key));
        for (SessionTurn turn : List.of(before, middle, after)) {
          Files.write(file, SessionLineCodec.write(turn), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
          Files.write(file, new byte[] {'\n'}, StandardOpenOption.APPEND);
        }
        try (SessionStore store = SessionStore.builder(dir, Fixtures.blobs(root)).maxLineBytes(limit).durable(false).build()) {
          List<SessionTurn> expected = middleBytes <= limit ? List.of(before, middle, after) : List.of(before, after);
          assertEquals(expected, store.open(key).turns());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** Whatever the session and limits: both limits hold, the newest turns win, and tool chains are whole. */
  @Test
  void assemble_respectsBothLimitsAndKeepsToolChainsWhole() {
    qt().withExamples(300)
        .forAll(sessions(), integers().between(0, 12), integers().between(0, 3000), integers().between(0, 40))
        .checkAssert((turns, maxTurns, maxChars, promptLength) -> {
          ContextAssembler assembler;
          try {
            assembler = new ContextAssembler(Fixtures.blobs(freshRoot()), 100);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          String prompt = "p".repeat(promptLength);
          List<SessionTurn> selected = assembler.select(turns, prompt, maxTurns, maxChars);
          assertTrue(selected.size() <= maxTurns);
          long chars = prompt.length();
          Set<String> uses = new HashSet<>();
          Set<String> results = new HashSet<>();
          for (SessionTurn turn : selected) {
            chars += assembler.cost(turn.parts());
            for (SessionPart part : turn.parts()) {
              if (part instanceof SessionPart.ToolUse use) {
                uses.add(use.id());
              } else if (part instanceof SessionPart.ToolResult result) {
                results.add(result.toolUseId());
              }
            }
          }
          assertTrue(selected.isEmpty() || chars <= maxChars, chars + " > " + maxChars);
          assertEquals(uses, results);
          // Selected turns are (trimmed) copies of a suffix: the last selected turn is the last turn, unless trimmed away.
          Conversation c = assembler.resolve(prompt, selected);
          for (Turn turn : c.turns()) {
            assertTrue(!turn.parts().isEmpty());
            for (Part part : turn.parts()) {
              assertTrue(!(part instanceof Part.Image), "no blobs exist, so every image is dropped");
            }
          }
        });
  }

  /** Up to 20 kinds of step: a user turn, an assistant turn, a tool use with its result, a user image. */
  private static Gen<List<SessionTurn>> sessions() {
    BlobKey missing = new BlobKey("0".repeat(64), MediaType.PNG);
    return lists().of(integers().between(0, 3)).ofSizeBetween(0, 20).map(kinds -> {
      List<SessionTurn> turns = new ArrayList<>();
      int tool = 0;
      for (int kind : kinds) {
        switch (kind) {
          case 0 -> turns.add(Fixtures.user("u".repeat(turns.size() * 7 % 50)));
          case 1 -> turns.add(Fixtures.assistant("a".repeat(turns.size() * 5 % 60)));
          case 2 -> {
            String id = "t" + tool++;
            turns.add(SessionTurn.assistant(Fixtures.T0, new SessionPart.ToolUse(id, "bash", RawJson.of("{}"))));
            turns.add(Fixtures.toolResult(id, new SessionPart.Text("r"), new SessionPart.ImageRef(missing, 1)));
          }
          default -> turns.add(SessionTurn.user(Fixtures.T0, new SessionPart.ImageRef(missing, 1)));
        }
      }
      return turns;
    });
  }
}
