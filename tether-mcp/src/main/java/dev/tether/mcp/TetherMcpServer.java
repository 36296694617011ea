package dev.tether.mcp;

import dev.tether.client.AttachmentClient;
import dev.tether.client.TetherClient;
import dev.tether.images.FrameValidator;
import dev.tether.media.AttachmentCatalog;
import dev.tether.media.MediaFetcher;
import dev.tether.media.MediaRegistry;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The host agent's MCP tools on the official MCP Java SDK: {@code tether_send},
 * {@code tether_read} and {@code tether_send_stream} (progress notifications while the agent
 * answers) over a {@link TetherClient}, plus {@code list_media} / {@code fetch_media}
 * when {@link Builder#media media} or {@link Builder#channelMedia channelMedia} is configured and {@code list_attachments} /
 * {@code read_attachment} / {@code view_attachment} when {@link Builder#attachments attachments}
 * is (from a local catalog, or from a host's session attachments through its client).
 *
 * <pre>{@code
 * TetherClient client = StoreTetherClient.builder(store).knownInstances(instances::contains).build(); // or over HTTP
 * TetherMcpServer tools = TetherMcpServer.builder(client).build();
 * StdioServer.run(tools);                          // or tools.start(anyTransportProvider)
 * }</pre>
 *
 * <p>Tool calls are asynchronous end to end (see {@link #tools()}): a long-polling
 * {@code tether_read} holds no thread, and other requests proceed while it waits. Every failure a
 * caller can cause (missing, unknown or wrongly typed arguments, an image that breaks a rule, an
 * unknown instance) is a tool result with {@code isError: true} whose text is
 * {@code {"error":{"code":..., "message":..., "image_index":...}}}; the codes are the
 * {@link dev.tether.api.ErrorCode} names ({@code INVALID_ARGUMENT}, {@code INSTANCE_NOT_FOUND}, {@code UNAUTHORIZED}, {@code NOT_FOUND},
 * {@code UNAVAILABLE} and {@code INTERNAL}, and for the media tools the media reasons
 * ({@code UNKNOWN_REF}, {@code EXPIRED_REF}, {@code NOT_AN_IMAGE}, ...). The server checks arguments itself
 * rather than with the SDK's schema validator, so that every error carries such a code.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class TetherMcpServer {
  /** The name this server reports in the MCP handshake. */
  public static final String SERVER_NAME = "tether";

  private final String version;
  private final String instructions;
  private final List<AsyncToolSpecification> tools;
  private final int maxLineChars;
  private final InFlightCalls inFlight = new InFlightCalls();

  private TetherMcpServer(Builder b) {
    this.version = b.version;
    this.instructions = b.instructions;
    this.maxLineChars = maxLineChars(b.validator.limits().maxFrameBytes());
    List<AsyncToolSpecification> specs = new ArrayList<>();
    SendTool send = new SendTool(b.client, b.validator);
    specs.add(ToolSpecs.spec(ToolSpecs.definition(SendTool.NAME), send::call));
    ReadTool read = new ReadTool(b.client);
    specs.add(ToolSpecs.spec(ToolSpecs.definition(ReadTool.NAME), read::call));
    SendStreamTool stream = new SendStreamTool(b.client, send);
    specs.add(ToolSpecs.spec(ToolSpecs.definition(SendStreamTool.NAME), (ToolSpecs.ExchangeBody) stream::call));
    ApprovalTools approvals = new ApprovalTools(b.client);
    specs.add(ToolSpecs.spec(ToolSpecs.definition(ApprovalTools.LIST), approvals::list));
    specs.add(ToolSpecs.spec(ToolSpecs.definition(ApprovalTools.APPROVE), approvals::approve));
    if (b.mediaRegistry != null) {
      MediaRegistry registry = b.mediaRegistry;
      MediaFetcher fetcher = b.mediaFetcher;
      specs.add(ToolSpecs.spec(ToolSpecs.definition(MediaTools.LIST_MEDIA), args -> MediaTools.listMedia(registry, args)));
      specs.add(ToolSpecs.spec(ToolSpecs.definition(MediaTools.FETCH_MEDIA), args -> MediaTools.fetchMedia(fetcher, args)));
    }
    if (b.hostAttachments != null) {
      HostAttachmentTools host = new HostAttachmentTools(b.hostAttachments, b.validator.limits(), b.visionCapable,
          b.defaultInstance);
      String dir = HostAttachmentTools.RESOURCES;
      specs.add(ToolSpecs.spec(ToolSpecs.definition(dir + MediaTools.LIST_ATTACHMENTS + ".json", MediaTools.LIST_ATTACHMENTS), host::list));
      specs.add(ToolSpecs.spec(ToolSpecs.definition(dir + MediaTools.READ_ATTACHMENT + ".json", MediaTools.READ_ATTACHMENT), host::read));
      specs.add(ToolSpecs.spec(ToolSpecs.definition(dir + MediaTools.VIEW_ATTACHMENT + ".json", MediaTools.VIEW_ATTACHMENT), host::view));
      specs.add(ToolSpecs.spec(ToolSpecs.definition(dir + MediaTools.GREP_ATTACHMENT + ".json", MediaTools.GREP_ATTACHMENT), host::grep));
    }
    if (b.channelMedia != null) {
      ChannelMediaClient media = b.channelMedia;
      specs.add(ToolSpecs.spec(ToolSpecs.definition("tools/list_media.channel.json", MediaTools.LIST_MEDIA),
          args -> MediaTools.listChannelMedia(media, args)));
      specs.add(ToolSpecs.spec(ToolSpecs.definition("tools/fetch_media.channel.json", MediaTools.FETCH_MEDIA),
          args -> MediaTools.fetchChannelMedia(media, args)));
    }
    if (b.attachments != null) {
      AttachmentCatalog catalog = b.attachments;
      boolean vision = b.visionCapable;
      Executor io = task -> Schedulers.boundedElastic().schedule(task);
      specs.add(ToolSpecs.spec(ToolSpecs.definition(MediaTools.LIST_ATTACHMENTS),
          args -> MediaTools.listAttachments(catalog, args)));
      specs.add(ToolSpecs.spec(ToolSpecs.definition(MediaTools.READ_ATTACHMENT),
          args -> MediaTools.readAttachment(catalog, io, args)));
      specs.add(ToolSpecs.spec(ToolSpecs.definition(MediaTools.VIEW_ATTACHMENT),
          args -> MediaTools.viewAttachment(catalog, vision, io, args)));
    }
    List<AsyncToolSpecification> counted = new ArrayList<>(specs.size());
    for (AsyncToolSpecification spec : specs) {
      counted.add(AsyncToolSpecification.builder().tool(spec.tool())
          .callHandler((exchange, request) -> Mono.defer(() -> {
            inFlight.begin();
            return spec.callHandler().apply(exchange, request).doFinally(signal -> inFlight.end());
          }))
          .build());
    }
    this.tools = List.copyOf(counted);
  }

  /** The tool calls in progress (see {@link StdioServer}'s drain on end of input). */
  InFlightCalls inFlight() {
    return inFlight;
  }

  /**
   * The longest JSON-RPC line a stdio server reads: three characters per byte of the largest
   * frame (a client may write every non-ASCII character as a JSON unicode escape, six characters
   * for two or three UTF-8 bytes, twelve for four), plus room for the JSON-RPC envelope. Every
   * message that could become a frame within the limit fits; a longer line is answered without
   * being held whole (see {@link JsonRpcLineGuard}).
   */
  static int maxLineChars(int maxFrameBytes) {
    return (int) Math.min(Integer.MAX_VALUE - 16, 3L * maxFrameBytes + (1 << 20));
  }

  /** See {@link #maxLineChars(int)}; for {@link StdioServer}. */
  int maxLineChars() {
    return maxLineChars;
  }

  public static Builder builder(TetherClient client) {
    return new Builder(client);
  }

  /**
   * The tool specifications, for an application that assembles its own SDK server. Each handler
   * returns a {@code Mono} over a future and never blocks the calling thread.
   */
  public List<AsyncToolSpecification> tools() {
    return tools;
  }

  /** The JSON mapper the tools expect: Jackson 2, with string limits that fit tether images. */
  public static McpJsonMapper jsonMapper() {
    return McpJson.SDK_MAPPER;
  }

  /**
   * Starts an SDK server with these tools on {@code transport}. The transport should be built
   * with {@link #jsonMapper()}. Outgoing messages are serialized per session (see
   * {@link SerializingTransportProvider}), since tool results complete on other threads than the
   * transport's. Close the returned server to stop.
   *
   * <p>For stdio use {@link StdioServer}: a {@code StdioServerTransportProvider} built directly
   * reads lines of at most 16 Mi characters (the SDK's default since 2.1, below a legal frame) and
   * stops reading for good at the first longer one.
   */
  public McpAsyncServer start(McpServerTransportProvider transport) {
    return McpServer.async(new SerializingTransportProvider(transport, inFlight::handedToOutput))
        .serverInfo(SERVER_NAME, version)
        .instructions(instructions)
        .jsonMapper(McpJson.SDK_MAPPER)
        .jsonSchemaValidator(McpJson.SCHEMA_VALIDATOR)
        .capabilities(ServerCapabilities.builder().tools(false).build())
        .validateToolInputs(false)
        .tools(tools)
        .build();
  }

  /**
   * Starts an SDK server with these tools on a Streamable HTTP transport (see
   * {@link McpHttpEndpoint}, which is the usual way). The transport serializes each stream's
   * writes itself. Close the returned server to stop.
   */
  public McpAsyncServer start(McpStreamableServerTransportProvider transport) {
    return McpServer.async(transport)
        .serverInfo(SERVER_NAME, version)
        .instructions(instructions)
        .jsonMapper(McpJson.SDK_MAPPER)
        .jsonSchemaValidator(McpJson.SCHEMA_VALIDATOR)
        .capabilities(ServerCapabilities.builder().tools(false).build())
        .validateToolInputs(false)
        .tools(tools)
        .build();
  }

  /** Configures a {@link TetherMcpServer}. Not thread-safe. */
  public static final class Builder {
    private final TetherClient client;
    private FrameValidator validator = FrameValidator.standard();
    private String version = "0.1.0";
    private MediaRegistry mediaRegistry;
    private MediaFetcher mediaFetcher;
    private AttachmentCatalog attachments;
    private AttachmentClient hostAttachments;
    private ChannelMediaClient channelMedia;
    private boolean visionCapable = true;
    private String defaultInstance;
    private String instructions = "Tools to delegate work to agents running inside VM instances and to see the"
        + " images they return. Send with tether_send, then read the answer with tether_read in a cursor loop"
        + " (after_seq = ingress_seq, then next_seq) until an assistant.done frame arrives.";

    private Builder(TetherClient client) {
      this.client = Objects.requireNonNull(client, "client");
    }

    /** The validator (and so the limits) applied to images before anything is sent. */
    public Builder validator(FrameValidator validator) {
      this.validator = Objects.requireNonNull(validator, "validator");
      return this;
    }

    /**
     * Adds {@code list_media} and {@code fetch_media} over {@code registry} and {@code fetcher}
     * (which must fetch from the same registry). Without this the tools are not offered.
     */
    public Builder media(MediaRegistry registry, MediaFetcher fetcher) {
      this.mediaRegistry = Objects.requireNonNull(registry, "registry");
      this.mediaFetcher = Objects.requireNonNull(fetcher, "fetcher");
      return this;
    }

    /**
     * Adds {@code list_media} and {@code fetch_media} over the instance's channel: the media that
     * {@code user.message}s on {@code media}'s instance announced, fetched by asking the channel
     * bridge that announced it ({@code media.fetch}, answered by {@code control.media}; see
     * {@link dev.tether.media.MediaFrames}). For an agent whose registry lives with a bridge on
     * the host, over any {@link TetherClient}. Excludes {@link #media}.
     */
    public Builder channelMedia(ChannelMediaClient media) {
      this.channelMedia = Objects.requireNonNull(media, "media");
      return this;
    }

    /**
     * Adds {@code list_attachments}, {@code read_attachment} and {@code view_attachment} over
     * {@code catalog}. Without this the tools are not offered.
     */
    public Builder attachments(AttachmentCatalog catalog) {
      Objects.requireNonNull(catalog, "catalog");
      if (hostAttachments != null) {
        throw new IllegalStateException("attachments are already served from a host; set a catalog or a host, not both");
      }
      this.attachments = catalog;
      return this;
    }

    /**
     * Adds {@code list_attachments}, {@code read_attachment} and {@code view_attachment} over a
     * host's session attachments, read through {@code client} (usually the same
     * {@code HttpTetherClient} the server was built with). Each call then names its
     * {@code instance}, {@code session_id} (default {@code default}) and {@code channel} (default
     * {@code host}). Without this or {@link #attachments(AttachmentCatalog)} the tools are not offered.
     *
     * @throws IllegalStateException when a catalog was set already
     */
    public Builder attachments(AttachmentClient client) {
      Objects.requireNonNull(client, "client");
      if (attachments != null) {
        throw new IllegalStateException("attachments are already served from a catalog; set a catalog or a host, not both");
      }
      this.hostAttachments = client;
      return this;
    }

    /**
     * The instance the host attachment tools ({@link #attachments(dev.tether.client.AttachmentClient)})
     * use when a call names none, as the attachment spec's signatures have no instance. Default:
     * none, a call must name its instance.
     */
    public Builder defaultInstance(String instance) {
      Objects.requireNonNull(instance, "instance");
      if (instance.isBlank()) {
        throw new IllegalArgumentException("defaultInstance must not be blank but was '" + instance + "'");
      }
      this.defaultInstance = instance;
      return this;
    }

    /**
     * Whether the model behind the MCP client can see images; when false, {@code view_attachment}
     * refuses with {@code VISION_UNSUPPORTED}. Default true: Claude Code and Cursor can.
     */
    public Builder visionCapable(boolean visionCapable) {
      this.visionCapable = visionCapable;
      return this;
    }

    /** The version reported in the MCP handshake. */
    public Builder version(String version) {
      Objects.requireNonNull(version, "version");
      if (version.isBlank()) {
        throw new IllegalArgumentException("version must not be blank but was '" + version + "'");
      }
      this.version = version;
      return this;
    }

    /** The instructions the MCP handshake gives the model. */
    public Builder instructions(String instructions) {
      this.instructions = Objects.requireNonNull(instructions, "instructions");
      return this;
    }

    /** @throws IllegalStateException when both {@link #media} and {@link #channelMedia} are set */
    public TetherMcpServer build() {
      if (mediaRegistry != null && channelMedia != null) {
        throw new IllegalStateException("media and channelMedia both offer list_media and fetch_media; set one");
      }
      return new TetherMcpServer(this);
    }
  }
}
