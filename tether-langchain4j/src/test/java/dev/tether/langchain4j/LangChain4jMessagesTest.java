package dev.tether.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.audio.Audio;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.ImageContent.DetailLevel;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.tether.api.Conversation;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import dev.tether.api.Turn;
import dev.tether.llm.FitReport;
import dev.tether.llm.ImageDetail;
import dev.tether.llm.ImageRuleException;
import dev.tether.llm.ProviderProfile;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LangChain4jMessagesTest {
  private static List<ChatMessage> roundTrip(List<ChatMessage> messages) {
    MappedConversation mapped = LangChain4jMessages.toConversation(messages);
    return LangChain4jMessages.toMessages(mapped.conversation(), mapped.imageDetails(), ImageDetail.AUTO);
  }

  @Test
  void everythingBothSidesHoldSurvivesTheRoundTrip() {
    qt().withExamples(300).forAll(longs().all()).checkAssert(seed -> {
      List<ChatMessage> messages = Lc4jMessages.of(seed);
      assertEquals(messages, roundTrip(messages), "seed " + seed);
    });
  }

  @Test
  void oursToTheirsAndBackKeepsTurnsAndImages() {
    Part.Image png = LangChain4jMessages.image(Lc4jMessages.image(new java.util.Random(1)), 0);
    Conversation c = new Conversation("sys", List.of(
        Turn.user(new Part.Text("see"), png),
        Turn.assistant(new Part.Text("running"), new Part.ToolUse("t1", "shot", RawJson.of("{\"a\":1}"))),
        Turn.user(new Part.ToolResult("t1", List.of(new Part.Text("done"), png), true)),
        Turn.assistant(new Part.Text("here"), png)));
    List<ChatMessage> theirs = LangChain4jMessages.toMessages(c, Map.of(1, ImageDetail.LOW), ImageDetail.HIGH);
    assertEquals(5, theirs.size());
    assertEquals("shot", ((ToolExecutionResultMessage) theirs.get(3)).toolName(), "the name comes from the tool use");
    assertEquals(DetailLevel.HIGH, ((ImageContent) ((UserMessage) theirs.get(1)).contents().get(1)).detailLevel());
    assertEquals(DetailLevel.LOW, ((ImageContent) ((ToolExecutionResultMessage) theirs.get(3)).contents().get(1)).detailLevel());
    assertEquals(1, ((AiMessage) theirs.get(4)).images().size());
    MappedConversation back = LangChain4jMessages.toConversation(theirs);
    assertEquals(c, back.conversation());
    assertEquals(Map.of(0, ImageDetail.HIGH, 1, ImageDetail.LOW), back.imageDetails());
  }

  @Test
  void everyImageContentHasItsDetailSetExplicitly() {
    qt().withExamples(50).forAll(longs().all()).checkAssert(seed -> {
      for (ChatMessage m : roundTrip(Lc4jMessages.of(seed))) {
        if (m instanceof UserMessage u) {
          u.contents().stream().filter(ImageContent.class::isInstance)
              .forEach(ic -> assertTrue(((ImageContent) ic).detailLevel() != null));
        }
      }
    });
  }

  @Test
  void documentedLosses() {
    List<ChatMessage> in = List.of(SystemMessage.from("a"), UserMessage.from("bob", List.of(TextContent.from("hi"),
        ImageContent.from(Lc4jMessages.image(new java.util.Random(2)), DetailLevel.MEDIUM))), SystemMessage.from("b"),
        AiMessage.from(ToolExecutionRequest.builder().id("x").name("n").arguments("").build()));
    MappedConversation mapped = LangChain4jMessages.toConversation(in);
    assertEquals("a\n\nb", mapped.conversation().systemPrompt());
    assertEquals(Map.of(0, ImageDetail.AUTO), mapped.imageDetails(), "MEDIUM becomes AUTO");
    assertEquals(new Part.ToolUse("x", "n", RawJson.EMPTY_OBJECT), mapped.conversation().turns().get(1).parts().get(0));
    assertEquals(null, ((UserMessage) roundTrip(in).get(1)).name(), "a user's name is not kept");
  }

  @Test
  void theMediaTypeComesFromTheBytesNotTheDeclaration() {
    dev.langchain4j.data.image.Image lying = dev.langchain4j.data.image.Image.builder()
        .base64Data(Lc4jMessages.PNGS.get(0)).mimeType("image/jpeg").build();
    Part.Image part = (Part.Image) LangChain4jMessages.toConversation(List.of(UserMessage.from(ImageContent.from(lying))))
        .conversation().turns().get(0).parts().get(0);
    assertEquals(MediaType.PNG, part.mediaType());
  }

  @Test
  void whatTetherCannotHoldIsRefusedNamingTheMessage() {
    IllegalArgumentException url = assertThrows(IllegalArgumentException.class, () -> LangChain4jMessages.toConversation(
        List.of(UserMessage.from("x"), UserMessage.from(ImageContent.from(URI.create("https://example.com/a.png"))))));
    assertTrue(url.getMessage().startsWith("message 1: an image given by URL"), url.getMessage());
    IllegalArgumentException audio = assertThrows(IllegalArgumentException.class, () -> LangChain4jMessages.toConversation(
        List.of(UserMessage.from(AudioContent.from(Audio.builder().base64Data("AAAA").mimeType("audio/wav").build())))));
    assertTrue(audio.getMessage().contains("AUDIO content has no tether form"), audio.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LangChain4jMessages.toConversation(List.of(
        UserMessage.from(ImageContent.from("bm90IGFuIGltYWdl", "image/png")))), "bytes that are not an image");
    assertThrows(IllegalArgumentException.class, () -> LangChain4jMessages.toConversation(List.of(
        AiMessage.from(ToolExecutionRequest.builder().id("x").name("n").arguments("{not json").build()))));
  }

  @Test
  void framesBecomeMessages() {
    Image wire = new Image(MediaType.PNG, Lc4jMessages.PNGS.get(1));
    ChatMessage user = LangChain4jMessages.toMessage(Frames.hostUserMessage("s", "hello", List.of(wire)), ImageDetail.LOW);
    assertEquals(UserMessage.from(TextContent.from("hello"),
        ImageContent.from(LangChain4jMessages.theirs(Part.Image.of(wire)), DetailLevel.LOW)), user);
    ChatMessage ai = LangChain4jMessages.toMessage(
        Frames.assistantDone(dev.tether.api.SessionKey.host("s"), "m1", "a chart", List.of(wire)), ImageDetail.AUTO);
    assertEquals("a chart", ((AiMessage) ai).text());
    assertEquals(1, ((AiMessage) ai).images().size());
    assertThrows(IllegalArgumentException.class, () -> LangChain4jMessages.toMessage(
        Frames.presence(dev.tether.api.SessionKey.host("s"), "m1", "idle"), ImageDetail.AUTO));
    assertEquals(Role.USER, LangChain4jMessages.toConversation(List.of(user)).conversation().turns().get(0).role());
  }

  @Test
  void checkAppliesAProvidersLimitsAndEstimatesTokens() {
    List<ChatMessage> messages = List.of(UserMessage.from(ImageContent.from(Lc4jMessages.image(new java.util.Random(3)),
        DetailLevel.LOW)));
    FitReport report = LangChain4jMessages.check(messages, ProviderProfile.openAiChat());
    assertEquals(85, report.totalImageTokens(), "low detail is 85 tokens");
    assertThrows(ImageRuleException.class, () -> LangChain4jMessages.check(messages,
        ProviderProfile.openAiChat().toBuilder().maxImagesPerRequest(0).build()));
  }
}
