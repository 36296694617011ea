package dev.tether.langchain4j;

import dev.tether.api.Conversation;
import dev.tether.llm.ImageDetail;
import dev.tether.llm.RequestOptions;
import java.util.Map;
import java.util.Objects;

/**
 * LangChain4j messages as a tether {@link Conversation}, with the detail each image asked for.
 *
 * @param conversation the system prompt and turns
 * @param imageDetails each image's detail by index in {@link Conversation#images()} order
 */
public record MappedConversation(Conversation conversation, Map<Integer, ImageDetail> imageDetails) {
  public MappedConversation {
    Objects.requireNonNull(conversation, "conversation");
    imageDetails = Map.copyOf(imageDetails);
  }

  /** {@code base} with every image's detail set, for {@code LlmRequest.prepare}. */
  public RequestOptions options(RequestOptions base) {
    RequestOptions options = base;
    for (Map.Entry<Integer, ImageDetail> e : imageDetails.entrySet()) {
      options = options.withImageDetail(e.getKey(), e.getValue());
    }
    return options;
  }
}
