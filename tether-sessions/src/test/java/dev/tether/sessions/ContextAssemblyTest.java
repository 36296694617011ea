package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tether.api.Conversation;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.Role;
import dev.tether.api.SessionKey;
import dev.tether.api.Turn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContextAssemblyTest {
  @TempDir Path root;
  private FileBlobStore files;
  private RecordingBlobStore blobs;
  private SessionStore store;
  private SessionLog log;

  @BeforeEach
  void open() throws IOException {
    files = Fixtures.blobs(root);
    blobs = new RecordingBlobStore(files);
    store = SessionStore.builder(root.resolve("sessions"), blobs).durable(false).build();
    log = store.open(SessionKey.host("default"));
  }

  private static List<String> texts(Conversation c) {
    return c.turns().stream().map(Turn::text).toList();
  }

  private void appendTexts(String... texts) throws IOException {
    for (int i = 0; i < texts.length; i++) {
      log.append(i % 2 == 0 ? Fixtures.user(texts[i]) : Fixtures.assistant(texts[i]));
    }
  }

  @Test
  void emptySession_givesTheSystemPromptAndNoTurns() {
    Conversation c = log.assembleContext("be brief", 10, 1000);
    assertEquals(new Conversation("be brief", List.of()), c);
  }

  @Test
  void turnLimit_keepsTheNewestTurnsOldestFirst() throws IOException {
    appendTexts("a", "b", "c", "d", "e");
    assertEquals(List.of("c", "d", "e"), texts(log.assembleContext("", 3, 1000)));
    assertEquals(List.of(), texts(log.assembleContext("", 0, 1000)));
    assertEquals(List.of("a", "b", "c", "d", "e"), texts(log.assembleContext("", 100, 1000)));
  }

  @Test
  void charLimit_stopsAtTheFirstTurnThatDoesNotFitAndCountsTheSystemPrompt() throws IOException {
    appendTexts("aaaa", "bbb", "cc", "d");
    assertEquals(List.of("bbb", "cc", "d"), texts(log.assembleContext("", 10, 6)));
    assertEquals(List.of("cc", "d"), texts(log.assembleContext("", 10, 5)));
    assertEquals(List.of("cc", "d"), texts(log.assembleContext("xyz", 10, 6)));
    assertEquals("xyz", log.assembleContext("xyz", 10, 6).systemPrompt());
    assertEquals(List.of(), texts(log.assembleContext("a long system prompt", 10, 6)));
  }

  @Test
  void image_countsItsFixedCostNotItsBytes() throws IOException {
    SessionPart.ImageRef ref = log.storeImage(dev.tether.api.ImageData.ofBytes(Fixtures.png(50_000, 1)), MediaType.PNG);
    log.append(Fixtures.user("old"));
    log.append(SessionTurn.user(Fixtures.T0, new SessionPart.Text("see"), ref));
    assertEquals(List.of("see"), texts(log.assembleContext("", 10, 2003)));
    assertEquals(List.of("old", "see"), texts(log.assembleContext("", 10, 2006)));
    assertEquals(List.of(), texts(log.assembleContext("", 10, 2002)));
  }

  @Test
  void imageCost_isConfigurable() throws IOException {
    try (SessionStore cheap = SessionStore.builder(root.resolve("cheap"), blobs).imageCost(10).durable(false).build()) {
      SessionLog s = cheap.open(SessionKey.host("x"));
      SessionPart.ImageRef ref = s.storeImage(dev.tether.api.ImageData.ofBytes(Fixtures.png(100, 2)), MediaType.PNG);
      s.append(SessionTurn.user(Fixtures.T0, ref));
      assertEquals(1, s.assembleContext("", 10, 10).turns().size());
      assertEquals(0, s.assembleContext("", 10, 9).turns().size());
    }
  }

  @Test
  void toolResultWhoseToolUseWasCutOffAtTheFront_isTrimmed() throws IOException {
    log.append(Fixtures.user("go"));
    log.append(Fixtures.toolUse("t1", "running"));
    log.append(Fixtures.toolResult("t1", new SessionPart.Text("result")));
    log.append(Fixtures.assistant("done"));
    // Two turns fit: the tool result and "done". The result lost its tool use, so it goes.
    assertEquals(List.of("done"), texts(log.assembleContext("", 2, 1000)));
    // The char limit cuts the same way: "running" + tool input do not fit, the result turn is trimmed.
    assertEquals(List.of("done"), texts(log.assembleContext("", 10, "result".length() + "done".length())));
    // With three turns the chain is whole and kept.
    assertEquals(List.of("running", "", "done"), texts(log.assembleContext("", 3, 1000)));
    Conversation four = log.assembleContext("", 4, 1000);
    assertEquals(4, four.turns().size());
    assertEquals(new Part.ToolResult("t1", List.of(new Part.Text("result")), false), four.turns().get(2).parts().get(0));
  }

  @Test
  void toolChain_cutBetweenUseAndResult_neverLeavesAnOrphanEitherWay() throws IOException {
    log.append(Fixtures.toolUse("t1", "first"));
    log.append(Fixtures.toolResult("t1", new SessionPart.Text("r1")));
    log.append(Fixtures.toolUse("t2", "pending")); // no result was ever written (crash)
    for (int maxTurns = 0; maxTurns <= 3; maxTurns++) {
      Conversation c = log.assembleContext("", maxTurns, 1000);
      List<String> uses = c.turns().stream().flatMap(t -> t.parts().stream())
          .filter(p -> p instanceof Part.ToolUse).map(p -> ((Part.ToolUse) p).id()).toList();
      List<String> results = c.turns().stream().flatMap(t -> t.parts().stream())
          .filter(p -> p instanceof Part.ToolResult).map(p -> ((Part.ToolResult) p).toolUseId()).toList();
      assertEquals(uses, results, "maxTurns " + maxTurns);
    }
    Conversation all = log.assembleContext("", 3, 1000);
    assertEquals(List.of("first", "", "pending"), texts(all));
    assertEquals(List.of(new Part.Text("pending")), all.turns().get(2).parts(), "the tool use without a result is gone, its text stays");
  }

  @Test
  void imagesAreReadOnlyForTheSelectedTurns() throws IOException {
    SessionPart.ImageRef old = log.storeImage(dev.tether.api.ImageData.ofBytes(Fixtures.png(100, 3)), MediaType.PNG);
    byte[] newBytes = Fixtures.png(100, 4);
    SessionPart.ImageRef recent = log.storeImage(dev.tether.api.ImageData.ofBytes(newBytes), MediaType.PNG);
    log.append(SessionTurn.user(Fixtures.T0, new SessionPart.Text("old"), old));
    log.append(Fixtures.assistant("ok"));
    log.append(SessionTurn.user(Fixtures.T0, new SessionPart.Text("new"), recent));
    Conversation c = log.assembleContext("", 1, 100_000);
    assertEquals(List.of(recent.key()), blobs.reads);
    Part.Image image = (Part.Image) c.turns().get(0).parts().get(1);
    assertArrayEquals(newBytes, image.data().toByteArray());
  }

  @Test
  void missingOrCorruptBlob_dropsThatImageOnly() throws IOException {
    SessionPart.ImageRef gone = log.storeImage(dev.tether.api.ImageData.ofBytes(Fixtures.png(100, 5)), MediaType.PNG);
    SessionPart.ImageRef bad = log.storeImage(dev.tether.api.ImageData.ofBytes(Fixtures.png(100, 6)), MediaType.PNG);
    SessionPart.ImageRef fine = log.storeImage(dev.tether.api.ImageData.ofBytes(Fixtures.png(100, 7)), MediaType.PNG);
    log.append(SessionTurn.user(Fixtures.T0, new SessionPart.Text("two pictures"), gone, fine));
    log.append(SessionTurn.user(Fixtures.T0, bad));
    log.append(SessionTurn.user(Fixtures.T0, new SessionPart.ToolResult("t", List.of(new SessionPart.Text("shot"), gone), false)));
    Files.delete(files.path(gone.key()));
    byte[] corrupt = Files.readAllBytes(files.path(bad.key()));
    corrupt[50] ^= 1;
    Files.write(files.path(bad.key()), corrupt);

    List<Turn> turns = log.assembleContext("", 10, 100_000).turns();

    assertEquals(List.of(new Part.Text("two pictures"), new Part.Image(MediaType.PNG,
        dev.tether.api.ImageData.ofBytes(files.get(fine.key())))), turns.get(0).parts());
    assertEquals(List.of(new Part.Text(ContextAssembler.IMAGE_UNAVAILABLE)), turns.get(1).parts());
    assertEquals(Role.USER, turns.get(1).role());
    assertEquals(2, turns.size(), "the tool result had no tool use, so it was trimmed");
  }

  @Test
  void negativeLimits_areCallerMistakes() {
    assertThrows(IllegalArgumentException.class, () -> log.assembleContext("", -1, 10));
    assertThrows(IllegalArgumentException.class, () -> log.assembleContext("", 1, -10));
    assertThrows(NullPointerException.class, () -> log.assembleContext(null, 1, 10));
  }

  @Test
  void blobKeysReferencedByTurns_includeToolResultImages() throws IOException {
    SessionPart.ImageRef a = log.storeImage(dev.tether.api.ImageData.ofBytes(Fixtures.png(100, 8)), MediaType.PNG);
    SessionPart.ImageRef b = log.storeImage(dev.tether.api.ImageData.ofBytes(Fixtures.png(100, 9)), MediaType.PNG);
    log.append(SessionTurn.user(Fixtures.T0, a));
    log.append(SessionTurn.user(Fixtures.T0, new SessionPart.ToolResult("t", List.of(b), false)));
    assertEquals(java.util.Set.of(a.key(), b.key()), store.referencedBlobs());
    List<BlobKey> keys = log.turns().stream().flatMap(t -> t.blobKeys().stream()).toList();
    assertEquals(List.of(a.key(), b.key()), keys);
  }
}
