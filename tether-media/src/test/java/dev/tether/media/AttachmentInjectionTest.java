package dev.tether.media;

import dev.tether.api.testing.TestImages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.tether.api.Conversation;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.Role;
import dev.tether.api.Turn;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AttachmentInjectionTest {
  private static AttachmentImage image(String name, byte[] bytes, MediaType type) {
    return new AttachmentImage(new Attachment(name, type.mimeType(), bytes.length, Instant.EPOCH),
        dev.tether.images.Images.fromBytes(bytes, type));
  }

  private final AttachmentImage a = image("a.png", TestImages.png(50), MediaType.PNG);
  private final AttachmentImage b = image("b.jpg", TestImages.jpeg(60), MediaType.JPEG);

  @Test
  void intoFirstUserTurn_appendsLabelledImagesToTheFirstUserTurnOnly() {
    Turn greeting = Turn.assistant(new Part.Text("Hi, how can I help?"));
    Turn ask = Turn.user(new Part.Text("What is in these?"));
    Turn later = Turn.user(new Part.Text("And now?"));
    Conversation c = new Conversation("sys", List.of(greeting, ask, later));

    Conversation out = AttachmentInjection.intoFirstUserTurn(c, List.of(a, b));

    assertEquals("sys", out.systemPrompt());
    assertEquals(greeting, out.turns().get(0));
    assertEquals(later, out.turns().get(2));
    assertEquals(List.of(
        new Part.Text("What is in these?"),
        new Part.Text("Attached image: a.png"), Part.Image.of(a.image()),
        new Part.Text("Attached image: b.jpg"), Part.Image.of(b.image())), out.turns().get(1).parts());
    assertEquals(2, out.images().size());
  }

  @Test
  void intoFirstUserTurn_addsANewFirstUserTurnWhenThereIsNone() {
    Turn greeting = Turn.assistant(new Part.Text("Hello"));
    Conversation out = AttachmentInjection.intoFirstUserTurn(new Conversation("", List.of(greeting)), List.of(a));
    assertEquals(2, out.turns().size());
    assertEquals(Role.USER, out.turns().get(0).role());
    assertEquals(List.of(new Part.Text("Attached image: a.png"), Part.Image.of(a.image())), out.turns().get(0).parts());
    assertEquals(greeting, out.turns().get(1));
  }

  @Test
  void intoFirstUserTurn_withoutImagesReturnsTheSameConversation() {
    Conversation c = new Conversation("", List.of(Turn.user(new Part.Text("x"))));
    assertSame(c, AttachmentInjection.intoFirstUserTurn(c, List.of()));
  }

  @Test
  void intoFirstUserTurn_worksWithTheCatalogImages(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    AttachmentCatalog catalog = AttachmentCatalog.open(dir);
    catalog.save(new AttachmentUpload("shot.png", java.util.Base64.getEncoder().encodeToString(TestImages.png(80)), "image/png"));
    catalog.save(new AttachmentUpload("notes.txt", "aGk=", "text/plain"));
    Conversation out = AttachmentInjection.intoFirstUserTurn(
        new Conversation("", List.of(Turn.user(new Part.Text("look")))), catalog.images());
    assertEquals(1, out.images().size());
    assertEquals(MediaType.PNG, out.images().get(0).mediaType());
  }
}
