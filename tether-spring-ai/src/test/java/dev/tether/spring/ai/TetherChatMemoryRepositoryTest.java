package dev.tether.spring.ai;

import static dev.tether.spring.ai.SpringAiFixtures.views;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.tether.sessions.FileBlobStore;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.MimeTypeUtils;

class TetherChatMemoryRepositoryTest {
  @TempDir Path root;
  FileBlobStore blobs;
  TetherChatMemoryRepository repository;

  @BeforeEach
  void open() throws Exception {
    blobs = FileBlobStore.builder(root.resolve("blobs")).durable(false).build();
    repository = TetherChatMemoryRepository.open(root.resolve("conversations"), blobs);
  }

  @Test
  void fiftyMessagesRepeatingOneImageStoreItsBytesOnce() throws Exception {
    byte[] png = SpringAiFixtures.png(300, 200, 0x102030);
    ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(100).build();
    for (int i = 0; i < 25; i++) {
      memory.add("c1", UserMessage.builder().text("again " + i).media(SpringAiFixtures.image(png)).build());
      memory.add("c1", new AssistantMessage("seen " + i));
    }
    repository.saveAll("c2", List.of(UserMessage.builder().text("same").media(SpringAiFixtures.image(png)).build()));

    assertEquals(1, blobs.keys().size());
    assertEquals(Set.copyOf(blobs.keys()), repository.referencedBlobs());
    assertFalse(Files.readString(repository.file("c1")).contains(Base64.getEncoder().encodeToString(png)));
    List<Message> read = repository.findByConversationId("c1");
    assertEquals(50, read.size());
    Media media = ((UserMessage) read.get(48)).getMedia().get(0);
    assertEquals(blobs.keys().get(0).toString(), media.getId(), "Media.id is the blob key");
    assertEquals(views(memory.get("c1")), views(read));
    assertEquals(List.of("c1", "c2"), repository.findConversationIds());
  }

  @Test
  void whatIsSavedIsWhatIsFound() {
    qt().withExamples(100).forAll(longs().all()).checkAssert(seed -> {
      List<Message> messages = SpringAiFixtures.of(seed);
      repository.saveAll("s" + seed, messages);
      assertEquals(views(messages), views(repository.findByConversationId("s" + seed)), "seed " + seed);
    });
  }

  @Test
  void otherMediaAreKeptInlineOrAsTheirUrl() {
    Media pdf = Media.builder().mimeType(MimeTypeUtils.parseMimeType("application/pdf")).data("%PDF-1.7".getBytes())
        .id("doc").name("report.pdf").build();
    Media url = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data("https://example.com/a.png").name("remote").build();
    List<Message> in = List.of(UserMessage.builder().text("files").media(pdf, url).build());
    repository.saveAll("m", in);
    assertEquals(views(in), views(repository.findByConversationId("m")));
  }

  @Test
  void deleteUnknownAndDamaged() throws Exception {
    assertEquals(List.of(), repository.findByConversationId("none"));
    repository.saveAll("x", List.of(new UserMessage("a")));
    repository.deleteByConversationId("x");
    assertEquals(List.of(), repository.findConversationIds());
    Files.writeString(repository.file("bad"), "{\"v\":2}");
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> repository.findByConversationId("bad"));
    assertFalse(e.getMessage().contains("\n"));
    assertEquals(root.resolve("conversations"), repository.file("../../etc/passwd").getParent());
  }

  @Test
  void springAisAutoConfigurationUsesItInsteadOfItsInMemoryRepository() {
    ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
        AutoConfigurations.of(TetherChatMemoryAutoConfiguration.class, ChatMemoryAutoConfiguration.class));
    runner.withPropertyValues("tether.chat-memory.dir=" + root.resolve("app")).run(ctx -> {
      assertThat(ctx).hasSingleBean(ChatMemoryRepository.class);
      assertThat(ctx.getBean(ChatMemoryRepository.class)).isInstanceOf(TetherChatMemoryRepository.class);
      ctx.getBean(ChatMemory.class).add("c", new UserMessage("hi"));
      assertEquals(List.of("c"), ctx.getBean(ChatMemoryRepository.class).findConversationIds());
    });
    runner.run(ctx -> assertThat(ctx.getBean(ChatMemoryRepository.class)).isInstanceOf(InMemoryChatMemoryRepository.class));
  }
}
