package dev.tether.whatsapp;

import dev.tether.api.Limits;
import dev.tether.chat.BridgeHost;
import dev.tether.chat.BridgeLifecycle;
import dev.tether.chat.ChatListener;
import dev.tether.chat.ChatSecret;
import dev.tether.client.AttachmentClient;
import dev.tether.client.TetherClient;
import dev.tether.media.MediaReference;
import dev.tether.whatsapp.internal.GraphApi;
import dev.tether.whatsapp.internal.WhatsAppConfig;
import dev.tether.whatsapp.internal.WhatsAppRuntime;
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
 * A WhatsApp Business Cloud API phone number bridged to one tether instance, on the chat-bridge
 * core ({@code dev.tether.chat}): customer messages from the allowed numbers, delivered to the
 * webhook ({@code /whatsapp/webhook}: verification handshake, {@code X-Hub-Signature-256} checked on
 * every delivery, repeated message ids dropped), become {@code user.message} frames on session
 * {@code whatsapp/<wa_id>}; the agent's answers go back as image and text messages. Media
 * (image, document, audio, voice, video, sticker) becomes {@code wa_} placeholders carrying the
 * media id when lazy (the default); a fetch resolves the media's URL at that moment (they expire
 * within minutes) and downloads it with the access token. WhatsApp's refusals, the 24-hour customer
 * service window first, are logged as sentences that say what to do.
 *
 * <p>Threads: the webhook's, ingress and egress; none runs caller code except the
 * {@link TetherClient}'s. Thread-safe; {@link #close()} is idempotent. Logs go to
 * {@link System.Logger} {@code dev.tether.whatsapp} with every secret redacted.
 */
public final class WhatsAppBridge implements AutoCloseable {
  private final WhatsAppConfig config;
  private final GraphApi api;
  private final InetSocketAddress listen;
  private final ChatSecret verifyToken;
  private final ChatSecret appSecret;
  private final BridgeLifecycle<WhatsAppRuntime> lifecycle = new BridgeLifecycle<>();

  private WhatsAppBridge(WhatsAppConfig config, GraphApi api, InetSocketAddress listen, ChatSecret verifyToken, ChatSecret appSecret) {
    this.config = config;
    this.api = api;
    this.listen = listen;
    this.verifyToken = verifyToken;
    this.appSecret = appSecret;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Locks the state directory, starts the webhook endpoint and the loops.
   *
   * @throws IOException when the state directory cannot be used or is locked, the endpoint cannot
   *     listen, or the host cannot be reached for a first start
   * @throws IllegalStateException when started twice or after close
   */
  public void start() throws IOException {
    lifecycle.start(() -> WhatsAppRuntime.start(config, api, listen, verifyToken, appSecret));
  }

  /** Where the webhook listens once started. */
  public InetSocketAddress webhookAddress() {
    return lifecycle.read(WhatsAppRuntime::address, null);
  }

  /** Readiness: started and not closed (the webhook is listening). */
  public boolean ready() {
    return lifecycle.read(WhatsAppRuntime::ready, false);
  }

  /** Webhook deliveries received since start (a meter). */
  public long received() {
    return lifecycle.read(WhatsAppRuntime::received, 0L);
  }

  @Override
  public void close() {
    lifecycle.close();
  }

  @Override
  public String toString() {
    return "WhatsAppBridge[instance=" + config.host().instance() + ", phoneNumberId=" + config.phoneNumberId() + "]";
  }

  /**
   * Builds a {@link WhatsAppBridge}. Required: {@link #client}, {@link #instance},
   * {@link #accessToken}, {@link #appSecret}, {@link #verifyToken}, {@link #phoneNumberId},
   * {@link #allowedNumbers}, {@link #stateDir}, {@link #webhook}. Not thread-safe.
   */
  public static final class Builder {
    private TetherClient client;
    private String instance;
    private ChatSecret accessToken;
    private ChatSecret appSecret;
    private ChatSecret verifyToken;
    private String phoneNumberId;
    private Set<String> allowedNumbers;
    private Path stateDir;
    private InetSocketAddress webhook;
    private URI graphUrl = GraphApi.PUBLIC_API;
    private Limits limits = Limits.defaults();
    private Duration pollWait = Duration.ofSeconds(25);
    private boolean lazy = true;
    private Duration mediaTtl = MediaReference.DEFAULT_TTL;
    private int maxMediaRefs = 10_000;
    private long inlineImageMaxBytes = 1_000_000;
    private long maxDownloadBytes = 100_000_000;
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

    /** The access token (a system user's permanent token): every Graph API call and media download. */
    public Builder accessToken(ChatSecret token) {
      this.accessToken = Objects.requireNonNull(token, "token");
      return this;
    }

    /** The Meta app's secret: every webhook delivery's {@code X-Hub-Signature-256} is checked with it. */
    public Builder appSecret(ChatSecret secret) {
      this.appSecret = Objects.requireNonNull(secret, "secret");
      return this;
    }

    /** The verify token you typed into the app's webhook settings, for the {@code hub.challenge} handshake. */
    public Builder verifyToken(ChatSecret token) {
      this.verifyToken = Objects.requireNonNull(token, "token");
      return this;
    }

    /** The business phone number's id (not the number itself), from the app's WhatsApp settings. */
    public Builder phoneNumberId(String id) {
      Objects.requireNonNull(id, "id");
      if (!id.matches("[0-9]{5,30}")) {
        throw new IllegalArgumentException("phoneNumberId must be digits, such as 106540352242922, but was '" + id + "'");
      }
      this.phoneNumberId = id;
      return this;
    }

    /** The customers' WhatsApp ids (international numbers, digits only) whose messages are forwarded and answered. */
    public Builder allowedNumbers(Set<String> waIds) {
      Objects.requireNonNull(waIds, "waIds");
      if (waIds.isEmpty()) {
        throw new IllegalArgumentException("allowedNumbers must name at least one number");
      }
      for (String id : waIds) {
        if (!WhatsAppChat.isWaId(id)) {
          throw new IllegalArgumentException("allowedNumbers must be WhatsApp ids (digits, no '+') but had '" + id + "'");
        }
      }
      this.allowedNumbers = Set.copyOf(new LinkedHashSet<>(waIds));
      return this;
    }

    public Builder stateDir(Path stateDir) {
      this.stateDir = Objects.requireNonNull(stateDir, "stateDir");
      return this;
    }

    /** Where the webhook listens (put a TLS proxy in front: WhatsApp calls https URLs only). */
    public Builder webhook(InetSocketAddress address) {
      this.webhook = Objects.requireNonNull(address, "address");
      return this;
    }

    /** The Graph API with its version; default {@code https://graph.facebook.com/v21.0/}. */
    public Builder graphUrl(URI url) {
      Objects.requireNonNull(url, "url");
      if (!"https".equals(url.getScheme()) && !"http".equals(url.getScheme()) || url.getHost() == null) {
        throw new IllegalArgumentException("graphUrl must be an http or https URL but was " + url);
      }
      this.graphUrl = url;
      return this;
    }

    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    public Builder pollWait(Duration wait) {
      requireBetween("pollWait", wait, Duration.ofSeconds(1), Duration.ofSeconds(50));
      this.pollWait = wait;
      return this;
    }

    /** Whether media is announced ({@code wa_} refs) rather than downloaded as it arrives; default lazy. */
    public Builder lazyMedia(boolean lazy) {
      this.lazy = lazy;
      return this;
    }

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

    /** The largest media downloaded; default 100 MB (WhatsApp's document limit). */
    public Builder maxDownloadBytes(long bytes) {
      if (bytes < 1 || bytes > (1L << 31) - 16) {
        throw new IllegalArgumentException("maxDownloadBytes must be in 1.." + ((1L << 31) - 16) + " but was " + bytes);
      }
      this.maxDownloadBytes = bytes;
      return this;
    }

    public Builder retryBackoff(Duration initial, Duration max) {
      requireBetween("retry initial", initial, Duration.ofMillis(1), Duration.ofMinutes(1));
      requireBetween("retry max", max, initial, Duration.ofMinutes(10));
      this.retryInitial = initial;
      this.retryMax = max;
      return this;
    }

    /** Stores non-image media of eager bridges as session attachments; without it they get a notice. */
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

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** @throws IllegalStateException when a required setting is missing */
    public WhatsAppBridge build() {
      require(client, "client");
      require(instance, "instance");
      require(accessToken, "accessToken");
      require(appSecret, "appSecret");
      require(verifyToken, "verifyToken");
      require(phoneNumberId, "phoneNumberId");
      require(allowedNumbers, "allowedNumbers");
      require(stateDir, "stateDir");
      require(webhook, "webhook");
      HttpClient http = httpClient != null ? httpClient
          : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
      WhatsAppConfig config = new WhatsAppConfig(new BridgeHost(client, instance, limits, pollWait), phoneNumberId, allowedNumbers,
          stateDir, lazy, mediaTtl, maxMediaRefs, inlineImageMaxBytes, maxDownloadBytes, retryInitial, retryMax, attachments, clock, listener);
      return new WhatsAppBridge(config, new GraphApi(graphUrl, accessToken, phoneNumberId, http, requestTimeout), webhook, verifyToken,
          appSecret);
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
