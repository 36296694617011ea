package dev.tether.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.ImageContent.DetailLevel;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.video.Video;
import dev.langchain4j.data.message.VideoContent;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.tether.sessions.FileBlobStore;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TetherChatMemoryStoreTest {
  @TempDir Path root;
  FileBlobStore blobs;
  TetherChatMemoryStore store;

  @BeforeEach
  void open() throws Exception {
    blobs = FileBlobStore.builder(root.resolve("blobs")).durable(false).build();
    store = TetherChatMemoryStore.open(root.resolve("memory"), blobs);
  }

  private long memoryBytes() throws Exception {
    try (Stream<Path> files = Files.list(root.resolve("memory"))) {
      long total = 0;
      for (Path f : files.toList()) {
        total += Files.size(f);
      }
      return total;
    }
  }

  @Test
  void fiftyMessagesRepeatingOneImageStoreItsBytesOnce() throws Exception {
    String png = Lc4jMessages.png(300, 200, 0x102030);
    dev.langchain4j.data.image.Image image = dev.langchain4j.data.image.Image.builder().base64Data(png)
        .mimeType("image/png").build();
    MessageWindowChatMemory memory = MessageWindowChatMemory.builder().id("chat-1").maxMessages(100)
        .chatMemoryStore(store).build();
    for (int i = 0; i < 25; i++) {
      memory.add(UserMessage.from(TextContent.from("again " + i), ImageContent.from(image, DetailLevel.HIGH)));
      memory.add(AiMessage.from("seen " + i));
    }
    // A second memory holding the same image shares the blob too.
    store.updateMessages("chat-2", List.of(UserMessage.from(ImageContent.from(image, DetailLevel.LOW))));

    assertEquals(1, blobs.keys().size());
    assertEquals(store.referencedBlobs(), java.util.Set.copyOf(blobs.keys()));
    String json = Files.readString(store.file("chat-1"));
    assertFalse(json.contains(png), "no image is inline in a stored memory");
    assertTrue(memoryBytes() < 25L * png.length(), "the memories hold keys, not images");

    List<ChatMessage> read = store.getMessages("chat-1");
    assertEquals(50, read.size());
    assertEquals(memory.messages(), read);
    assertEquals(png, ((ImageContent) ((UserMessage) read.get(48)).contents().get(1)).image().base64Data());
  }

  @Test
  void whatIsStoredIsWhatIsRead() {
    qt().withExamples(100).forAll(longs().all()).checkAssert(seed -> {
      List<ChatMessage> messages = Lc4jMessages.of(seed);
      store.updateMessages(seed, messages);
      assertEquals(messages, store.getMessages(seed), "seed " + seed);
    });
  }

  @Test
  void aWindowEvictsAndTheStoreFollows() {
    MessageWindowChatMemory memory = MessageWindowChatMemory.builder().id("w").maxMessages(3).chatMemoryStore(store).build();
    for (int i = 0; i < 5; i++) {
      memory.add(UserMessage.from("m" + i));
    }
    assertEquals(List.of(UserMessage.from("m2"), UserMessage.from("m3"), UserMessage.from("m4")), store.getMessages("w"));
  }

  @Test
  void anUnknownMemoryIsEmptyAndDeleteRemovesIt() {
    assertEquals(List.of(), store.getMessages("nobody"));
    store.updateMessages("gone", List.of(UserMessage.from("x")));
    store.deleteMessages("gone");
    assertEquals(List.of(), store.getMessages("gone"));
    store.deleteMessages("gone");
  }

  @Test
  void hostileIdsNeverNameAnotherPathAndFilesAreOwnerOnly() throws Exception {
    for (String id : List.of("../../etc/passwd", "/abs", "a\u0000b", "", "x".repeat(10_000))) {
      store.updateMessages(id, List.of(UserMessage.from(id.isEmpty() ? "e" : "v")));
      Path file = store.file(id);
      assertEquals(root.resolve("memory"), file.getParent());
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("memory"))));
  }

  @Test
  void aDamagedMemoryIsAOneLineErrorAndUnsupportedContentIsRefused() throws Exception {
    Files.writeString(store.file("bad"), "{\"v\":1,\"messages\":[{\"type\":\"wizard\"}]}");
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> store.getMessages("bad"));
    assertTrue(e.getMessage().contains("unknown type 'wizard'") && !e.getMessage().contains("\n"), e.getMessage());
    Files.writeString(store.file("bad"), "not json");
    assertThrows(UncheckedIOException.class, () -> store.getMessages("bad"));
    List<ChatMessage> video = new ArrayList<>(List.of(UserMessage.from(VideoContent.from(
        Video.builder().base64Data("AAAA").mimeType("video/mp4").build()))));
    assertThrows(IllegalArgumentException.class, () -> store.updateMessages("v", video));
    assertEquals(List.of(), store.getMessages("v"), "a refused update leaves nothing behind");
  }

  @Test
  void imagesGetTheTypeOfTheirBytes() {
    dev.langchain4j.data.image.Image lying = dev.langchain4j.data.image.Image.builder()
        .base64Data(Lc4jMessages.image(new Random(5)).base64Data()).mimeType("image/webp").build();
    store.updateMessages("t", List.of(UserMessage.from(ImageContent.from(lying, DetailLevel.AUTO))));
    UserMessage read = (UserMessage) store.getMessages("t").get(0);
    assertEquals("image/png", ((ImageContent) read.contents().get(0)).image().mimeType());
  }
}
