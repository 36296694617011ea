package dev.tether.examples.langchain4j;

import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.ImageContent.DetailLevel;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.tether.langchain4j.LangChain4jMessages;
import dev.tether.langchain4j.TetherChatMemoryStore;
import dev.tether.llm.FitReport;
import dev.tether.llm.ProviderProfile;
import dev.tether.sessions.FileBlobStore;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import javax.imageio.ImageIO;

/**
 * A LangChain4j chat memory whose images live in tether: ten turns that show the same screenshot
 * keep its bytes once, as a content-addressed blob, and the memory file holds only its key. Then
 * the memory is checked against Claude's limits, with its image tokens estimated, before it would
 * be sent. Prints three lines and exits 0.
 */
public final class ChatMemoryExample {
  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("tether-lc4j");
    FileBlobStore blobs = FileBlobStore.open(dir.resolve("blobs"));
    TetherChatMemoryStore store = TetherChatMemoryStore.open(dir.resolve("memory"), blobs);
    MessageWindowChatMemory memory = MessageWindowChatMemory.builder().id("user-42").maxMessages(20)
        .chatMemoryStore(store).build();

    ByteArrayOutputStream png = new ByteArrayOutputStream();
    ImageIO.write(new BufferedImage(1000, 800, BufferedImage.TYPE_INT_RGB), "png", png);
    Image screenshot = Image.builder().base64Data(Base64.getEncoder().encodeToString(png.toByteArray()))
        .mimeType("image/png").build();
    for (int i = 1; i <= 10; i++) {
      memory.add(UserMessage.from(TextContent.from("step " + i + ": still this screen?"),
          ImageContent.from(screenshot, DetailLevel.LOW)));
      memory.add(AiMessage.from("yes, step " + i));
    }

    System.out.println(memory.messages().size() + " messages, " + blobs.keys().size() + " image blob(s) of "
        + png.size() + " bytes");
    long memoryBytes;
    try (var files = Files.list(dir.resolve("memory"))) {
      memoryBytes = files.mapToLong(f -> f.toFile().length()).sum();
    }
    System.out.println("the memory file: " + memoryBytes + " bytes (keys, not images)");
    FitReport report = LangChain4jMessages.check(memory.messages(), ProviderProfile.anthropic());
    System.out.println("Claude: " + report.imageTokens().size() + " images, about " + report.totalImageTokens()
        + " image tokens");
  }
}
