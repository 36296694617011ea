package dev.tether.mcp;

import dev.tether.api.TetherException;
import dev.tether.api.Image;
import dev.tether.media.AttachmentCatalog;
import dev.tether.media.MediaFetchResult;
import dev.tether.media.MediaFetcher;
import dev.tether.media.MediaRegistry;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.tether.api.SessionKey;
import dev.tether.media.MediaAnswer;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The lazy-media tools ({@code list_media}, {@code fetch_media}) over a {@link MediaRegistry} and
 * {@link MediaFetcher}, and the attachment tools ({@code list_attachments},
 * {@code read_attachment}, {@code view_attachment}) over an {@link AttachmentCatalog}. Images come
 * back as MCP image content. File reads run on {@code io}, never on the transport's threads. A
 * {@link TetherException} becomes a tool error whose code is its reason (for example
 * {@code EXPIRED_REF}). Thread-safe.
 */
final class MediaTools {
  static final String LIST_MEDIA = "list_media";
  static final String FETCH_MEDIA = "fetch_media";
  static final String LIST_ATTACHMENTS = "list_attachments";
  static final String READ_ATTACHMENT = "read_attachment";
  static final String VIEW_ATTACHMENT = "view_attachment";
  static final String GREP_ATTACHMENT = "grep_attachment";

  private MediaTools() {}

  static CompletableFuture<CallToolResult> listMedia(MediaRegistry registry, Map<String, Object> arguments) {
    Args.of(LIST_MEDIA, arguments, Set.of());
    return CompletableFuture.completedFuture(text(registry.listText()));
  }

  static CompletableFuture<CallToolResult> fetchMedia(MediaFetcher fetcher, Map<String, Object> arguments) {
    Args args = Args.of(FETCH_MEDIA, arguments, Set.of("mediaRef"));
    String ref = args.requireNonBlank("mediaRef");
    if (ref.startsWith("ref:")) {
      ref = ref.substring(4); // copied with its placeholder prefix
    }
    return fetcher.fetch(ref).handle((result, failure) -> {
      if (failure != null) {
        throw new CompletionException(mediaError(failure));
      }
      if (result instanceof MediaFetchResult.InlineImage inline) {
        return image(inline.image(), "Image " + inline.ref().id() + " (" + inline.image().mediaType().mimeType() + ")");
      }
      MediaFetchResult.SavedFile saved = (MediaFetchResult.SavedFile) result;
      return text("Saved " + saved.ref().id() + " to " + saved.path() + " (" + saved.size() + " bytes, "
          + saved.ref().mimeType() + "). Open it from there; it is not shown inline because it is not a small image.");
    });
  }

  /** {@code list_media} over the instance's announced media: one placeholder line each, with its chat. */
  static CompletableFuture<CallToolResult> listChannelMedia(ChannelMediaClient media, Map<String, Object> arguments) {
    Args.of(LIST_MEDIA, arguments, Set.of());
    return media.list().thenApply(seen -> {
      if (seen.isEmpty()) {
        return text("No media available.");
      }
      StringBuilder sb = new StringBuilder();
      for (ChannelMediaClient.Seen s : seen) {
        if (sb.length() > 0) {
          sb.append('\n');
        }
        sb.append("- ").append(s.item().placeholder().format().replaceAll("[\\r\\n\\u2028\\u2029]+", " "))
            .append(" (session ").append(s.session().channel()).append('/').append(s.session().id())
            .append(", until ").append(s.item().expiresAt()).append(')');
      }
      return text(sb.toString());
    });
  }

  /**
   * {@code fetch_media} through the channel bridge: the image as image content, a saved file as
   * text with its path, the bridge's coded error as a tool error.
   */
  static CompletableFuture<CallToolResult> fetchChannelMedia(ChannelMediaClient media, Map<String, Object> arguments) {
    Args args = Args.of(FETCH_MEDIA, arguments, Set.of("mediaRef", "session_id", "channel"));
    String ref = args.requireNonBlank("mediaRef").strip();
    if (ref.startsWith("ref:")) {
      ref = ref.substring(4); // copied with its placeholder prefix
    }
    if (!ref.matches("[A-Za-z0-9._-]{1,128}")) {
      throw ToolError.invalidArguments(FETCH_MEDIA + ": mediaRef must be the id after ref: in a placeholder"
          + " (1 to 128 of A-Z a-z 0-9 . _ -)");
    }
    Optional<String> sessionId = args.optString("session_id").filter(s -> !s.isEmpty());
    String channel = args.optString("channel").filter(s -> !s.isEmpty()).orElse("telegram");
    Optional<SessionKey> session = sessionId.map(id -> new SessionKey(channel, id));
    String wanted = ref;
    return media.fetch(ref, session).thenApply(answer -> {
      if (answer instanceof MediaAnswer.Fetched f) {
        return image(f.image(), "Image " + f.ref() + " (" + f.image().mediaType().mimeType() + ", "
            + f.image().decodedSize() + " bytes)");
      }
      if (answer instanceof MediaAnswer.Saved s) {
        return text("Saved " + s.ref() + " to " + s.path() + " (" + s.size() + " bytes, " + s.mimeType() + ") on the"
            + " machine where the channel bridge runs. It is not shown inline because it is not an image of at most"
            + " about 1 MB.");
      }
      MediaAnswer.Failed e = (MediaAnswer.Failed) answer;
      throw ToolError.of(e.code(), e.message().isEmpty() ? "media ref:" + wanted + " cannot be fetched" : e.message());
    });
  }

  static CompletableFuture<CallToolResult> listAttachments(AttachmentCatalog catalog, Map<String, Object> arguments) {
    Args.of(LIST_ATTACHMENTS, arguments, Set.of());
    return CompletableFuture.completedFuture(text(catalog.listText()));
  }

  static CompletableFuture<CallToolResult> readAttachment(
      AttachmentCatalog catalog, Executor io, Map<String, Object> arguments) {
    Args args = Args.of(READ_ATTACHMENT, arguments, Set.of("filename", "offset", "limit"));
    String fileName = args.requireNonBlank("filename");
    long offset = args.optLong("offset", 0, Long.MAX_VALUE).orElse(0L);
    Long limit = args.optLong("limit", 1, Integer.MAX_VALUE).orElse(null);
    return CompletableFuture.supplyAsync(() -> {
      try {
        return text((limit == null && offset == 0
            ? catalog.read(fileName)
            : catalog.read(fileName, offset, limit == null ? Integer.MAX_VALUE : limit.intValue())).toolText());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (TetherException e) {
        throw mediaError(e);
      }
    }, io);
  }

  static CompletableFuture<CallToolResult> viewAttachment(
      AttachmentCatalog catalog, boolean visionCapable, Executor io, Map<String, Object> arguments) {
    Args args = Args.of(VIEW_ATTACHMENT, arguments, Set.of("filename"));
    String fileName = args.requireNonBlank("filename");
    return CompletableFuture.supplyAsync(() -> {
      try {
        Image image = catalog.view(fileName, visionCapable);
        return image(image, fileName + " (" + image.mediaType().mimeType() + ")");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (TetherException e) {
        throw mediaError(e);
      }
    }, io);
  }

  /** A {@link TetherException} as a coded tool error; anything else unchanged. */
  private static RuntimeException mediaError(Throwable failure) {
    Throwable e = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    if (e instanceof TetherException media) {
      return ToolError.from(media);
    }
    return e instanceof RuntimeException r ? r : new CompletionException(e);
  }

  private static CallToolResult text(String text) {
    return CallToolResult.builder().content(List.of(TextContent.builder(text).build())).isError(false).build();
  }

  private static CallToolResult image(Image image, String caption) {
    List<Content> content = List.of(
        TextContent.builder(caption).build(),
        ImageContent.builder(image.data(), image.mediaType().mimeType()).build());
    return CallToolResult.builder().content(content).isError(false).build();
  }
}
