package dev.tether.spring.ai;

import dev.tether.api.blobs.BlobStore;
import dev.tether.sessions.FileBlobStore;
import java.io.IOException;
import java.nio.file.Path;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * With {@code tether.chat-memory.dir} set, a {@link TetherChatMemoryRepository} in that directory
 * (conversations in it, images in its {@code blobs} subdirectory, or in the application's
 * {@link BlobStore} bean when it has one). It runs before Spring AI's chat-memory
 * auto-configuration, whose {@code ChatMemory} then uses it instead of the in-memory repository.
 * An application's own {@link ChatMemoryRepository} bean wins.
 */
@AutoConfiguration(beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@ConditionalOnClass(ChatMemoryRepository.class)
@ConditionalOnProperty("tether.chat-memory.dir")
public class TetherChatMemoryAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean(ChatMemoryRepository.class)
  TetherChatMemoryRepository tetherChatMemoryRepository(Environment env, ObjectProvider<BlobStore> blobStore)
      throws IOException {
    Path dir = Path.of(env.getRequiredProperty("tether.chat-memory.dir"));
    BlobStore blobs = blobStore.getIfAvailable();
    if (blobs == null) {
      blobs = FileBlobStore.open(dir.resolve("blobs"));
    }
    return TetherChatMemoryRepository.open(dir.resolve("conversations"), blobs);
  }
}
