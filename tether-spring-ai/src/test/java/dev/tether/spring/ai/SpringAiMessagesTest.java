package dev.tether.spring.ai;

import static dev.tether.spring.ai.SpringAiFixtures.viewsWithoutNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.tether.api.Conversation;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.RawJson;
import dev.tether.api.Turn;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeTypeUtils;

class SpringAiMessagesTest {
  @Test
  void everythingBothSidesHoldSurvivesTheRoundTrip() {
    qt().withExamples(300).forAll(longs().all()).checkAssert(seed -> {
      List<Message> messages = SpringAiFixtures.of(seed);
      assertEquals(viewsWithoutNames(messages), viewsWithoutNames(SpringAiMessages.toMessages(SpringAiMessages.toConversation(messages))),
          "seed " + seed);
    });
  }

  @Test
  void mediaIdIsTheBlobKeyAndTheTypeComesFromTheBytes() {
    byte[] png = SpringAiFixtures.PNGS.get(0);
    Media lying = Media.builder().mimeType(MimeTypeUtils.IMAGE_JPEG).data(png).id("whatever").build();
    Conversation c = SpringAiMessages.toConversation(List.of(UserMessage.builder().text("x").media(lying).build()));
    Part.Image image = (Part.Image) c.turns().get(0).parts().get(1);
    assertEquals(MediaType.PNG, image.mediaType());
    Media back = ((UserMessage) SpringAiMessages.toMessages(c).get(0)).getMedia().get(0);
    assertEquals(MimeTypeUtils.IMAGE_PNG, back.getMimeType());
    assertEquals(SpringAiFixtures.image(png).getId(), back.getId());
  }

  @Test
  void toolResultImagesAndErrorsAreDocumentedLosses() {
    Part.Image png = new Part.Image(MediaType.PNG, ImageData.ofBytes(SpringAiFixtures.PNGS.get(1)));
    Conversation c = new Conversation("", List.of(
        Turn.assistant(new Part.ToolUse("t1", "shot", RawJson.of("{}"))),
        Turn.user(new Part.ToolResult("t1", List.of(new Part.Text("boom"), png), true))));
    List<Message> out = SpringAiMessages.toMessages(c);
    assertEquals(3, out.size());
    ToolResponseMessage.ToolResponse r = ((ToolResponseMessage) out.get(1)).getResponses().get(0);
    assertEquals(new ToolResponseMessage.ToolResponse("t1", "shot", "Error: boom"), r);
    UserMessage images = (UserMessage) out.get(2);
    assertEquals("Images from tool call t1:", images.getText());
    assertEquals(1, images.getMedia().size());
  }

  @Test
  void severalSystemMessagesBecomeOnePrompt() {
    Conversation c = SpringAiMessages.toConversation(List.of(new SystemMessage("a"), new UserMessage("q"), new SystemMessage("b")));
    assertEquals("a\n\nb", c.systemPrompt());
  }

  @Test
  void whatTetherCannotHoldIsRefusedNamingTheMessage() {
    Media url = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data("https://example.com/a.png").build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SpringAiMessages.toConversation(
        List.of(new UserMessage("x"), UserMessage.builder().text("y").media(url).build())));
    assertTrue(e.getMessage().startsWith("message 1: media given by URL"), e.getMessage());
    Media pdf = Media.builder().mimeType(MimeTypeUtils.parseMimeType("application/pdf")).data("%PDF-1.7".getBytes()).build();
    assertThrows(IllegalArgumentException.class, () -> SpringAiMessages.toConversation(
        List.of(UserMessage.builder().text("y").media(pdf).build())));
    assertThrows(IllegalArgumentException.class, () -> SpringAiMessages.toConversation(List.of(AssistantMessage.builder()
        .content("").toolCalls(List.of(new AssistantMessage.ToolCall("i", "function", "n", "{bad"))).build())));
  }
}
