package dev.tether.slack;

import dev.tether.api.Limits;
import dev.tether.chat.BridgeHost;
import dev.tether.chat.BridgeLifecycle;
import dev.tether.chat.ChatListener;
import dev.tether.chat.ChatSecret;
import dev.tether.client.AttachmentClient;
import dev.tether.client.TetherClient;
import dev.tether.media.MediaReference;
import dev.tether.slack.internal.SlackApi;
import dev.tether.slack.internal.SlackConfig;
import dev.tether.slack.internal.SlackRuntime;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * A Slack app bridged to one tether instance, on the chat-bridge core ({@code dev.tether.chat}):
 * messages of the allowed channels and DMs become {@code user.message} frames on session channel
 * {@code slack} (id {@code <channel>:<thread_ts>}: a thread is a session), and the agent's answers
 * go back into the same thread, images first (Slack's external upload flow). Files of lazy
 * conversations (channels, by default) become {@code sl_} placeholders fetched only when the agent
 * asks; in eager ones images are downloaded at once and other files stored as session attachments.
 *
 * <pre>{@code
 * try (SlackBridge bridge = SlackBridge.builder()
 *     .client(tetherClient).instance("default")
 *     .botToken(ChatSecret.fromFile("Slack bot token", Path.of("/etc/tether/slack-bot-token")))
 *     .appToken(ChatSecret.fromFile("Slack app token", Path.of("/etc/tether/slack-app-token")))
 *     .allowedChannels(Set.of("C0123ABCD"))
 *     .stateDir(Path.of("/var/lib/tether-slack"))
 *     .build()) {
 *   bridge.start();
 * }
 * }</pre>
 *
 * <p><b>Events.</b> With an {@link Builder#appToken app-level token} events come over Socket Mode
 * (no public endpoint); with {@link Builder#eventsApi} over HTTP, every delivery checked against the
 * signing secret. <b>Threads:</b> ingress, egress, and the Socket Mode loop or the endpoint's
 * threads; none runs caller code except the {@link TetherClient}'s. Thread-safe; {@link #close()}
 * is idempotent. Failures are logged through {@link System.Logger} {@code dev.tether.slack} with
 * the tokens redacted, and retried.
 */
public final class SlackBridge implements AutoCloseable {
  private final SlackConfig config;
  private final SlackApi api;
  private final HttpClient http;
  private final InetSocketAddress events;
  private final ChatSecret signingSecret;
  private final BridgeLifecycle<SlackRuntime> lifecycle = new BridgeLifecycle<>();

  private SlackBridge(SlackConfig config, SlackApi api, HttpClient http, InetSocketAddress events, ChatSecret signingSecret) {
    this.config = config;
    this.api = api;
    this.http = http;
    this.events = events;
    this.signingSecret = signingSecret;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Locks the state directory, reads the saved cursor (a first start begins at the host's current
   * end) and starts the loops.
   *
   * @throws IOException when the state directory cannot be used or is locked, the endpoint cannot
   *     listen, or the host cannot be reached for a first start
   * @throws IllegalStateException when started twice or after close
   */
  public void start() throws IOException {
    lifecycle.start(() -> SlackRuntime.start(config, api, http, events, signingSecret));
  }

  /** Where the Events API endpoint listens once started ({@code POST /slack/events}), or null in Socket Mode. */
  public InetSocketAddress eventsAddress() {
    return lifecycle.read(SlackRuntime::eventsAddress, null);
  }

  /** Readiness: started, not closed, and events can arrive (endpoint up, or Socket Mode connected). */
  public boolean ready() {
    return lifecycle.read(SlackRuntime::ready, false);
  }

  /** Event deliveries received since start (a meter). */
  public long received() {
    return lifecycle.read(SlackRuntime::received, 0L);
  }

  /** Stops the loops and releases the state directory. Idempotent. */
  @Override
  public void close() {
    lifecycle.close();
  }

  @Override
  public String toString() {
    return "SlackBridge[instance=" + config.host().instance() + ", channels=" + config.allowedChannels() + "]";
  }

  /**
   * Builds a {@link SlackBridge}. Required: {@link #client}, {@link #instance}, {@link #botToken},
   * {@link #allowedChannels}, {@link #stateDir}, and either {@link #appToken} (Socket Mode) or
   * {@link #eventsApi} (HTTP). Not thread-safe.
   */
  public static final class Builder {
    private TetherClient client;
    private String instance;
    private ChatSecret botToken;
    private ChatSecret appToken;
    private ChatSecret signingSecret;
    private InetSocketAddress events;
    private URI apiUrl = SlackApi.PUBLIC_API;
    private Set<String> allowedChannels;
    private Path stateDir;
    private Limits limits = Limits.defaults();
    private Duration pollWait = Duration.ofSeconds(25);
    private boolean lazyDirect;
    private boolean lazyChannels = true;
    private Duration mediaTtl = MediaReference.DEFAULT_TTL;
    private int maxMediaRefs = 10_000;
    private long inlineImageMaxBytes = 1_000_000;
    private long maxDownloadBytes = 100_000_000;
    private boolean liveEdits;
    private Duration editInterval = Duration.ofSeconds(1);
    private Duration retryInitial = Duration.ofMillis(500);
    private Duration retryMax = Duration.ofSeconds(30);
    private Duration requestTimeout = Duration.ofSeconds(30);
    private AttachmentClient attachments;
    private HttpClient httpClient;
    private Clock clock = Clock.systemUTC();
    private ChatListener listener = ChatListener.NONE;

    private Builder() {}

    public Builder client(TetherClient client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    public Builder instance(String instance) {
      Objects.requireNonNull(instance, "instance");
      if (instance.isBlank()) {
        throw new IllegalArgumentException("instance must not be blank");
      }
      this.instance = instance;
      return this;
    }

    /** The bot token ({@code xoxb-...}): every Web API call and file download. */
    public Builder botToken(ChatSecret token) {
      this.botToken = Objects.requireNonNull(token, "token");
      return this;
    }

    /** The app-level token ({@code xapp-...}, scope {@code connections:write}): events over Socket Mode. */
    public Builder appToken(ChatSecret token) {
      this.appToken = Objects.requireNonNull(token, "token");
      return this;
    }

    /**
     * Events over HTTP instead of Socket Mode: the endpoint {@code POST /slack/events} listens on
     * {@code address} (put a TLS proxy in front of it), each delivery checked with the app's
     * {@code signingSecret} and a five-minute replay window.
     */
    public Builder eventsApi(InetSocketAddress address, ChatSecret signingSecret) {
      this.events = Objects.requireNonNull(address, "address");
      this.signingSecret = Objects.requireNonNull(signingSecret, "signingSecret");
      return this;
    }

    /** The Web API; default {@code https://slack.com/api/}. */
    public Builder apiUrl(URI apiUrl) {
      Objects.requireNonNull(apiUrl, "apiUrl");
      if (!"https".equals(apiUrl.getScheme()) && !"http".equals(apiUrl.getScheme()) || apiUrl.getHost() == null) {
        throw new IllegalArgumentException("apiUrl must be an http or https URL but was " + apiUrl);
      }
      this.apiUrl = apiUrl;
      return this;
    }

    /** The conversation ids ({@code C...}, {@code G...}, {@code D...}) whose messages are forwarded and answered. */
    public Builder allowedChannels(Set<String> ids) {
      Objects.requireNonNull(ids, "ids");
      if (ids.isEmpty()) {
        throw new IllegalArgumentException("allowedChannels must name at least one conversation");
      }
      for (String id : ids) {
        if (!SlackChat.isChannelId(id)) {
          throw new IllegalArgumentException("allowedChannels must be Slack conversation ids like C0123ABCD but had '" + id + "'");
        }
      }
      this.allowedChannels = Set.copyOf(new LinkedHashSet<>(ids));
      return this;
    }

    /** Where the answer cursor and the media references are kept; created 0700 when missing. */
    public Builder stateDir(Path stateDir) {
      this.stateDir = Objects.requireNonNull(stateDir, "stateDir");
      return this;
    }

    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** How long one long poll of the host waits, 1 to 50 seconds; default 25. */
    public Builder pollWait(Duration wait) {
      requireBetween("pollWait", wait, Duration.ofSeconds(1), Duration.ofSeconds(50));
      this.pollWait = wait;
      return this;
    }

    /** Whether files in direct messages are announced (lazy) rather than downloaded; default eager. */
    public Builder lazyDirectMessages(boolean lazy) {
      this.lazyDirect = lazy;
      return this;
    }

    /** Whether files in channels are announced (lazy) rather than downloaded; default lazy. */
    public Builder lazyChannels(boolean lazy) {
      this.lazyChannels = lazy;
      return this;
    }

    /** How long a lazy media reference stays fetchable, 1 s to 30 days; default 30 minutes. */
    public Builder mediaTtl(Duration ttl) {
      requireBetween("mediaTtl", ttl, Duration.ofSeconds(1), Duration.ofDays(30));
      this.mediaTtl = ttl;
      return this;
    }

    public Builder maxMediaRefs(int max) {
      if (max < 1 || max > 1_000_000) {
        throw new IllegalArgumentException("maxMediaRefs must be in 1..1000000 but was " + max);
      }
      this.maxMediaRefs = max;
      return this;
    }

    /** The largest file downloaded (checked against the event's size before any request); default 100 MB. */
    public Builder maxDownloadBytes(long bytes) {
      if (bytes < 1 || bytes > (1L << 31) - 16) {
        throw new IllegalArgumentException("maxDownloadBytes must be in 1.." + ((1L << 31) - 16) + " but was " + bytes);
      }
      this.maxDownloadBytes = bytes;
      return this;
    }

    /** Fetched images up to this many bytes are answered inline; default 1,000,000. */
    public Builder mediaInlineMaxBytes(long bytes) {
      if (bytes < 0 || bytes > limits.maxImageBytes()) {
        throw new IllegalArgumentException("mediaInlineMaxBytes must be in 0.." + limits.maxImageBytes() + " but was " + bytes);
      }
      this.inlineImageMaxBytes = bytes;
      return this;
    }

    /** Whether streamed text is shown live by editing a draft ({@code chat.update}); default off. */
    public Builder liveEdits(boolean liveEdits) {
      this.liveEdits = liveEdits;
      return this;
    }

    /** The backoff after a network failure or a 5xx: starts at {@code initial}, doubles up to {@code max}. */
    public Builder retryBackoff(Duration initial, Duration max) {
      requireBetween("retry initial", initial, Duration.ofMillis(1), Duration.ofMinutes(1));
      requireBetween("retry max", max, initial, Duration.ofMinutes(10));
      this.retryInitial = initial;
      this.retryMax = max;
      return this;
    }

    /** Stores non-image files of eager conversations as session attachments; without it they get a notice. */
    public Builder attachments(AttachmentClient attachments) {
      this.attachments = Objects.requireNonNull(attachments, "attachments");
      return this;
    }

    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /** Told what the bridge receives, forwards and sends, for meters; default {@link ChatListener#NONE}. */
    public Builder listener(ChatListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The clock of media references and of the signature window; default the system clock. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** @throws IllegalStateException when a required setting is missing or both event sources are set */
    public SlackBridge build() {
      require(client, "client");
      require(instance, "instance");
      require(botToken, "botToken");
      require(allowedChannels, "allowedChannels");
      require(stateDir, "stateDir");
      if ((appToken == null) == (events == null)) {
        throw new IllegalStateException("exactly one of appToken (Socket Mode) and eventsApi (HTTP) is required");
      }
      HttpClient http = httpClient != null ? httpClient
          : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
      SlackConfig config = new SlackConfig(new BridgeHost(client, instance, limits, pollWait), allowedChannels, stateDir, lazyDirect,
          lazyChannels, mediaTtl, maxMediaRefs, inlineImageMaxBytes, maxDownloadBytes, liveEdits, editInterval, retryInitial, retryMax,
          attachments, clock, listener);
      return new SlackBridge(config, new SlackApi(apiUrl, botToken, appToken, http, requestTimeout), http, events, signingSecret);
    }

    private static void require(Object value, String name) {
      if (value == null) {
        throw new IllegalStateException(name + " is required");
      }
    }

    private static void requireBetween(String name, Duration d, Duration min, Duration max) {
      Objects.requireNonNull(d, name);
      if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
        throw new IllegalArgumentException(name + " must be in " + min + ".." + max + " but was " + d);
      }
    }
  }
}
