package dev.tether.langchain4j;

import dev.langchain4j.data.message.ImageContent.DetailLevel;
import dev.tether.llm.ImageDetail;

/**
 * LangChain4j's detail levels and tether's. LangChain4j has two more: {@code MEDIUM} becomes
 * {@code AUTO} and {@code ULTRA_HIGH} becomes {@code HIGH} (the nearest OpenAI setting); a missing
 * detail is {@code AUTO}.
 */
final class Details {
  private Details() {}

  static ImageDetail ours(DetailLevel level) {
    if (level == null) {
      return ImageDetail.AUTO;
    }
    return switch (level) {
      case LOW -> ImageDetail.LOW;
      case HIGH, ULTRA_HIGH -> ImageDetail.HIGH;
      case MEDIUM, AUTO -> ImageDetail.AUTO;
    };
  }

  static DetailLevel theirs(ImageDetail detail) {
    return switch (detail) {
      case LOW -> DetailLevel.LOW;
      case HIGH -> DetailLevel.HIGH;
      case AUTO -> DetailLevel.AUTO;
    };
  }
}
