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
