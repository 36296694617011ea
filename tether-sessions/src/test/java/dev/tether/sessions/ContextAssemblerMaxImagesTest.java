package dev.tether.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.tether.api.Conversation;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.SessionKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ContextAssembler#withMaxImages}: only the newest N images stay images. */
class ContextAssemblerMaxImagesTest {
  @TempDir Path root;
  private RecordingBlobStore blobs;
  private SessionLog log;
  private final List<SessionPart.ImageRef> refs = new ArrayList<>();

  @BeforeEach
  void open() throws IOException {
    blobs = new RecordingBlobStore(Fixtures.blobs(root));
    log = SessionStore.builder(root.resolve("sessions"), blobs).durable(false).build().open(SessionKey.host("default"));
    // Five user turns "t0".."t4", each with text and one distinct image, answered by the assistant.
    for (int i = 0; i < 5; i++) {
      SessionPart.ImageRef ref = log.storeImage(ImageData.ofBytes(Fixtures.png(1000, i)), MediaType.PNG);
      refs.add(ref);
      log.append(SessionTurn.user(Fixtures.T0, new SessionPart.Text("t" + i), ref));
      log.append(Fixtures.assistant("a" + i));
    }
  }

  private static List<Part> userParts(Conversation c, int userTurn) {
    return c.turns().get(2 * userTurn).parts();
  }

  @Test
  void olderImagesBecomePlaceholdersNamingTheImageAndTheirTextStays() {
    ContextAssembler assembler = new ContextAssembler(blobs, 10).withMaxImages(2);
    Conversation c = assembler.assemble(log.turns(), "", 100, 1_000_000);
    assertEquals(10, c.turns().size());
    assertEquals(2, c.images().size());
    for (int i = 0; i < 3; i++) {
      List<Part> parts = userParts(c, i);
      assertEquals(new Part.Text("t" + i), parts.get(0));
      String placeholder = ((Part.Text) parts.get(1)).text();
      assertEquals(ContextAssembler.imagePlaceholder(refs.get(i).key(), 2), placeholder);
      assertTrue(placeholder.contains(refs.get(i).key().toString()) && placeholder.contains("image/png"), placeholder);
    }
    assertTrue(userParts(c, 3).get(1) instanceof Part.Image);
    assertTrue(userParts(c, 4).get(1) instanceof Part.Image);
  }

  @Test
  void placeholdersAreNeverReadFromTheBlobStore() {
    blobs.reads.clear();
    new ContextAssembler(blobs, 10).withMaxImages(1).assemble(log.turns(), "", 100, 1_000_000);
    assertEquals(List.of(refs.get(4).key()), blobs.reads);
  }

  @Test
  void zeroKeepsNoImageAndTheDefaultKeepsAll() {
    assertEquals(0, new ContextAssembler(blobs, 10).withMaxImages(0).assemble(log.turns(), "", 100, 1_000_000).images().size());
    assertEquals(5, new ContextAssembler(blobs, 10).assemble(log.turns(), "", 100, 1_000_000).images().size());
    assertEquals(ContextAssembler.ALL_IMAGES, new ContextAssembler(blobs, 10).maxImages());
    assertThrows(IllegalArgumentException.class, () -> new ContextAssembler(blobs, 10).withMaxImages(-1));
  }

  @Test
  void aPlaceholderCountsItsLengthNotTheImageCost() {
    int placeholder = ContextAssembler.imagePlaceholder(refs.get(0).key(), 1).length();
    ContextAssembler assembler = new ContextAssembler(blobs, 100_000).withMaxImages(1);
    // Newest user turn: "t4" + one image (100000); the older ones cost text + placeholder.
    int budget = 100_000 + 2 + 2 + (2 + placeholder + 2);
    Conversation c = assembler.assemble(log.turns(), "", 100, budget);
    assertEquals(4, c.turns().size());
    assertEquals(1, c.images().size());
    assertEquals(3, assembler.assemble(log.turns(), "", 100, budget - 1).turns().size());
  }

  @Test
  void neverMoreThanNImagesWhateverTheLimits() {
    qt().withExamples(60).forAll(integers().between(0, 6), integers().between(0, 12), integers().between(0, 30_000))
        .checkAssert((max, turns, chars) -> {
          Conversation c = new ContextAssembler(blobs, 1000).withMaxImages(max).assemble(log.turns(), "", turns, chars);
          assertTrue(c.images().size() <= max, c.images().size() + " > " + max);
          Conversation all = new ContextAssembler(blobs, 1000).assemble(log.turns(), "", turns, chars);
          assertTrue(c.turns().size() >= all.turns().size(), "placeholders never cost more than images here");
        });
  }
}
