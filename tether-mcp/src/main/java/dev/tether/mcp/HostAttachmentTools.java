package dev.tether.mcp;

import dev.tether.api.ErrorCode;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.AttachmentClient;
import dev.tether.client.AttachmentInfo;
import dev.tether.media.Attachment;
import dev.tether.media.AttachmentReads;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import reactor.core.scheduler.Schedulers;

/**
 * {@code list_attachments}, {@code read_attachment} and {@code view_attachment} over a host's
 * session attachments, reached through an {@link AttachmentClient} (what {@code tether mcp} serves
 * over its {@code HttpTetherClient}). Each call names the instance and the session
 * ({@code session_id}, default {@code default}; {@code channel}, default {@code host}).
 *
 * <p>The text and image rules are the catalog's ({@link AttachmentReads}): text is UTF-8 windowed
 * by code points (at most {@value #MAX_READ_CHARS} per call), a NUL in the first 8 KiB makes a
 * file binary ({@code BINARY_ATTACHMENT}), only the four image types are viewable
 * ({@code NOT_AN_IMAGE}) and their bytes must match the declared type ({@code MEDIA_TYPE_MISMATCH}).
 * A declared type that is not an image is refused before any byte is fetched. Host refusals keep
 * their codes ({@code UNKNOWN_ATTACHMENT}, {@code INSTANCE_NOT_FOUND}, {@code NOT_IMPLEMENTED}).
 * Thread-safe; nothing blocks a caller's thread.
 */
final class HostAttachmentTools {
  static final String RESOURCES = "tools/host/";
  static final int MAX_READ_CHARS = 50_000;
  private static final Set<String> SESSION_ARGS = Set.of("instance", "session_id", "channel");

  static final int DEFAULT_GREP_MATCHES = 50;
  static final int MAX_GREP_MATCHES = 500;
  /** The time one grep_attachment call may spend matching, across all its files. */
  static final long GREP_BUDGET_NANOS = TimeUnit.SECONDS.toNanos(2);

  private final AttachmentClient client;
  private final Limits limits;
  private final boolean visionCapable;
  private final String defaultInstance; // null: every call names its instance

  HostAttachmentTools(AttachmentClient client, Limits limits, boolean visionCapable) {
    this(client, limits, visionCapable, null);
  }

  /** @param defaultInstance the instance of a call that names none, or null to require one */
  HostAttachmentTools(AttachmentClient client, Limits limits, boolean visionCapable, String defaultInstance) {
    this.client = Objects.requireNonNull(client, "client");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.visionCapable = visionCapable;
    this.defaultInstance = defaultInstance;
  }

  /** The call's {@code instance}, else the default one; refused when neither is there. */
  private String instance(String tool, Args args) {
    Optional<String> named = args.optString("instance");
    if (named.isPresent()) {
      if (named.get().isBlank()) {
        throw ToolError.invalidArguments(tool + ": instance must not be empty");
      }
      return named.get();
    }
    if (defaultInstance == null) {
      throw ToolError.invalidArguments(tool + " needs instance (a string): this server has no default instance"
          + " (start tether mcp with --instance NAME to set one)");
    }
    return defaultInstance;
  }

  CompletableFuture<CallToolResult> list(Map<String, Object> arguments) {
    Args args = Args.of(MediaTools.LIST_ATTACHMENTS, arguments, SESSION_ARGS);
    String instance = instance(MediaTools.LIST_ATTACHMENTS, args);
    SessionKey session = session(MediaTools.LIST_ATTACHMENTS, args);
    return client.attachments(instance, session).thenApply(all -> {
      if (all.isEmpty()) {
        return text("No attachments in session " + session + " of instance '" + instance + "'.");
      }
      StringBuilder sb = new StringBuilder();
      for (AttachmentInfo a : all) {
        sb.append(sb.length() == 0 ? "" : "\n").append(a.listLine());
      }
      return text(sb.toString());
    });
  }

  CompletableFuture<CallToolResult> read(Map<String, Object> arguments) {
    Args args = Args.of(MediaTools.READ_ATTACHMENT, arguments, with("filename", "offset", "limit"));
    String instance = instance(MediaTools.READ_ATTACHMENT, args);
    SessionKey session = session(MediaTools.READ_ATTACHMENT, args);
    String fileName = args.requireNonBlank("filename");
    long offset = args.optLong("offset", 0, Long.MAX_VALUE).orElse(0L);
    int limit = (int) Math.min(MAX_READ_CHARS, args.optLong("limit", 1, Integer.MAX_VALUE).orElse((long) MAX_READ_CHARS));
    return find(instance, session, fileName).thenCompose(a -> client.attachment(instance, session, a.fileName())
        .thenApply(bytes -> text(coded(() -> AttachmentReads.text(a, bytes, offset, limit)).toolText())));
  }

  CompletableFuture<CallToolResult> view(Map<String, Object> arguments) {
    Args args = Args.of(MediaTools.VIEW_ATTACHMENT, arguments, with("filename"));
    String instance = instance(MediaTools.VIEW_ATTACHMENT, args);
    SessionKey session = session(MediaTools.VIEW_ATTACHMENT, args);
    String fileName = args.requireNonBlank("filename");
    return find(instance, session, fileName).thenCompose(a -> {
      coded(() -> AttachmentReads.requireViewable(a, visionCapable));
      return client.attachment(instance, session, a.fileName()).thenApply(bytes -> {
        Image image = coded(() -> AttachmentReads.image(a, bytes, limits));
        List<Content> content = List.of(
            TextContent.builder(a.fileName() + " (" + image.mediaType().mimeType() + ", " + bytes.length + " bytes)").build(),
            ImageContent.builder(image.data(), image.mediaType().mimeType()).build());
        return CallToolResult.builder().content(content).isError(false).build();
      });
    });
  }

  /**
   * {@code grep_attachment}: a regular expression over the lines of the session's text attachments
   * (or the one named), bounded in matches and time (see {@link AttachmentGrep}); the files are
   * fetched concurrently and searched off the transport's threads.
   */
  CompletableFuture<CallToolResult> grep(Map<String, Object> arguments) {
    String tool = MediaTools.GREP_ATTACHMENT;
    Args args = Args.of(tool, arguments, with("pattern", "filename", "max_matches"));
    String instance = instance(tool, args);
    SessionKey session = session(tool, args);
    Pattern pattern = AttachmentGrep.compile(tool, args.requireString("pattern"));
    int maxMatches = (int) (long) args.optLong("max_matches", 1, MAX_GREP_MATCHES).orElse((long) DEFAULT_GREP_MATCHES);
    Optional<String> only = args.optString("filename");
    return client.attachments(instance, session).thenCompose(all -> {
      List<AttachmentInfo> chosen = only.isEmpty() ? all : all.stream().filter(a -> a.name().equals(only.get())).toList();
      if (only.isPresent() && chosen.isEmpty()) {
        throw ToolError.of(ErrorCode.UNKNOWN_ATTACHMENT, "session " + session + " of instance '" + instance
            + "' has no attachment named '" + excerpt(only.get()) + "'; use list_attachments to see the names");
      }
      List<CompletableFuture<AttachmentGrep.File>> files = new ArrayList<>();
      for (AttachmentInfo a : chosen) {
        files.add(a.size() > AttachmentGrep.MAX_FILE_BYTES
            ? CompletableFuture.completedFuture(new AttachmentGrep.File(a.name(), null))
            : client.attachment(instance, session, a.name()).thenApply(bytes -> new AttachmentGrep.File(a.name(), bytes)));
      }
      return CompletableFuture.allOf(files.toArray(CompletableFuture[]::new)).thenApplyAsync(v -> {
        List<AttachmentGrep.File> fetched = files.stream().map(CompletableFuture::join).toList();
        String report = new AttachmentGrep(pattern, maxMatches, GREP_BUDGET_NANOS, System::nanoTime).search(fetched);
        return text(report);
      }, task -> Schedulers.boundedElastic().schedule(task));
    });
  }

  /** The listed attachment named exactly {@code fileName}, as the catalog's value type. */
  private CompletableFuture<Attachment> find(String instance, SessionKey session, String fileName) {
    return client.attachments(instance, session).thenApply(all -> {
      for (AttachmentInfo a : all) {
        if (a.name().equals(fileName)) {
          try {
            return new Attachment(a.name(), a.mimeType(), a.size(), a.addedAt());
          } catch (IllegalArgumentException e) {
            throw ToolError.of(ErrorCode.INVALID_UPLOAD, "the host lists an unusable attachment: " + e.getMessage());
          }
        }
      }
      throw ToolError.of(ErrorCode.UNKNOWN_ATTACHMENT, "session " + session + " of instance '" + instance
          + "' has no attachment named '" + excerpt(fileName) + "'; use list_attachments to see the names");
    });
  }

  private static SessionKey session(String tool, Args args) {
    String id = args.optString("session_id").orElse(SessionKey.DEFAULT_ID);
    String channel = args.optString("channel").orElse(SessionKey.HOST_CHANNEL);
    if (id.isEmpty() || channel.isEmpty()) {
      throw ToolError.invalidArguments(tool + ": session_id and channel must not be empty (leave them out for 'default' and 'host')");
    }
    return new SessionKey(channel, id);
  }

  private static Set<String> with(String... more) {
    HashSet<String> all = new HashSet<>(SESSION_ARGS);
    all.addAll(List.of(more));
    return Set.copyOf(all);
  }

  /** Runs {@code work}, a {@link TetherException} becoming the coded tool error. */
  private static <T> T coded(Supplier<T> work) {
    try {
      return work.get();
    } catch (TetherException e) {
      throw new CompletionException(ToolError.from(e));
    }
  }

  private static String excerpt(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }

  private static CallToolResult text(String text) {
    return CallToolResult.builder().content(List.of(TextContent.builder(text).build())).isError(false).build();
  }
}
