package dev.tether.telegram;

import dev.tether.api.Limits;
import dev.tether.chat.BridgeLifecycle;
import dev.tether.client.AttachmentClient;
import dev.tether.client.TetherClient;
import dev.tether.media.MediaReference;
import dev.tether.telegram.internal.BotApi;
import dev.tether.telegram.internal.BridgeConfig;
import dev.tether.telegram.internal.BridgeRuntime;
import dev.tether.telegram.internal.MediaSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * A Telegram bot bridged to one tether instance: messages (text, photos, image documents,
 * albums) from the allowed chats become {@code user.message} frames on session channel
 * {@code telegram} (id = chat id, or {@code chat:thread} in forum topics), and the agent's answers
 * go back to the same chat or topic, images first. Media of {@link MediaMode#LAZY lazy} chats
 * (groups, by default) is announced by placeholders and fetched only when the agent asks.
 *
 * <pre>{@code
 * try (TelegramBridge bridge = TelegramBridge.builder()
 *     .client(tetherClient)
 *     .instance("default")
 *     .token(BotToken.fromFile(Path.of("/etc/tether/bot-token")))
 *     .allowedChats(Set.of(123456789L))
 *     .stateDir(Path.of("/var/lib/tether-telegram"))
 *     .build()) {
 *   bridge.start();
 *   ...
 * }
 * }</pre>
 *
 * <p><b>Delivery.</b> Telegram updates are confirmed only after the host accepted their frame, and
 * every Telegram message the bridge sends is recorded in the state directory, so a restart neither
 * loses nor repeats messages (see the README section "Connect a Telegram bot"). One bridge per
 * state directory: {@link #start()} takes a lock on it.
 *
 * <p><b>Threads.</b> {@link #start()} starts two threads (ingress, egress) and a scheduler for the
 * typing action; none of them runs caller code except the {@link TetherClient}'s. The bridge is
 * thread-safe; {@link #close()} stops the threads and is idempotent. Failures of Telegram or the
 * host are logged (through {@link System.Logger} {@code dev.tether.telegram}, with the token
 * redacted) and retried; they never end the bridge.
 */
public final class TelegramBridge implements AutoCloseable {
  private final BridgeConfig config;
  private final MediaSettings media;
  private final BotApi api;
  private final BridgeLifecycle<BridgeRuntime> lifecycle = new BridgeLifecycle<>();

  private TelegramBridge(BridgeConfig config, MediaSettings media, BotApi api) {
    this.config = config;
    this.media = media;
    this.api = api;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Locks the state directory, reads the saved positions (a first start begins at the host's
   * current end and Telegram's oldest unconfirmed update) and starts the loops.
   *
   * @throws IOException when the state directory cannot be used or is locked by another bridge, or
   *     the host cannot be reached for a first start
   * @throws IllegalStateException when started twice or after close
   */
  public void start() throws IOException {
    lifecycle.start(() -> BridgeRuntime.start(config, media, api));
  }

  /** Stops the loops, waits for them briefly and releases the state directory. Idempotent. */
  @Override
  public void close() {
    lifecycle.close();
  }

  @Override
  public String toString() {
    return "TelegramBridge[instance=" + config.instance() + ", chats=" + config.allowedChats() + ", " + api.token() + "]";
  }

  /**
   * Builds a {@link TelegramBridge}. Required: {@link #client}, {@link #instance}, {@link #token},
   * {@link #allowedChats} (at least one) and {@link #stateDir}. Not thread-safe.
   */
  public static final class Builder {
    private TetherClient client;
    private String instance;
    private BotToken token;
    private URI apiUrl = BotApi.PUBLIC_API;
    private TelegramListener listener = TelegramListener.NONE;
    private Set<Long> allowedChats;
    private boolean refuseOtherChats;
    private Path stateDir;
    private Limits limits = Limits.defaults();
    private Duration pollWait = Duration.ofSeconds(25);
    private Duration albumWindow = Duration.ofMillis(1500);
    private boolean liveEdits;
    private Duration editInterval = Duration.ofSeconds(1);
    private Duration typingInterval = Duration.ofSeconds(4);
    private Duration retryInitial = Duration.ofMillis(500);
    private Duration retryMax = Duration.ofSeconds(30);
    private Duration requestTimeout = Duration.ofSeconds(30);
    private HttpClient httpClient;
    private AttachmentClient attachments;
    private MediaMode mediaPrivate = MediaMode.EAGER;
    private MediaMode mediaGroups = MediaMode.LAZY;
    private Duration mediaTtl = MediaReference.DEFAULT_TTL;
    private int maxMediaRefs = 10_000;
    private long mediaInlineMaxBytes = 1_000_000;
    private Clock mediaClock = Clock.systemUTC();

    private Builder() {}

    /**
     * Stores documents that are not images (text, code, PDF...) as attachments of the chat's
     * session on the host, with the MIME type Telegram reports, and forwards the message with
     * {@code [Attachment: name (size bytes, type)]} in its text and {@code attachments} in its
     * payload. Usually the same {@code HttpTetherClient} as {@link #client}. Without it such
     * documents are refused with a notice to the chat.
     */
    public Builder attachments(AttachmentClient attachments) {
      this.attachments = Objects.requireNonNull(attachments, "attachments");
      return this;
    }

    /** The tether host, in-process or remote. */
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

    public Builder token(BotToken token) {
      this.token = Objects.requireNonNull(token, "token");
      return this;
    }

    /** The Bot API server; default {@code https://api.telegram.org}. A local Bot API server works too. */
    public Builder apiUrl(URI apiUrl) {
      Objects.requireNonNull(apiUrl, "apiUrl");
      String scheme = apiUrl.getScheme();
      if (!"https".equals(scheme) && !"http".equals(scheme) || apiUrl.getHost() == null) {
        throw new IllegalArgumentException("apiUrl must be an http or https URL but was " + apiUrl);
      }
      if (apiUrl.getRawQuery() != null || apiUrl.getRawFragment() != null) {
        throw new IllegalArgumentException("apiUrl must not have a query or fragment but was " + apiUrl);
      }
      this.apiUrl = apiUrl;
      return this;
    }

    /** The chats whose messages are forwarded and which are answered; other chats are ignored. */
    public Builder allowedChats(Set<Long> chatIds) {
      Objects.requireNonNull(chatIds, "chatIds");
      if (chatIds.isEmpty()) {
        throw new IllegalArgumentException("allowedChats must name at least one chat");
      }
      this.allowedChats = Set.copyOf(new LinkedHashSet<>(chatIds));
      return this;
    }

    /** Whether a chat that is not allowed gets one refusal message (with its chat id); default no answer. */
    public Builder refuseOtherChats(boolean refuse) {
      this.refuseOtherChats = refuse;
      return this;
    }

    /** Where the update offset and the egress cursor are kept; created (0700) when missing. */
    public Builder stateDir(Path stateDir) {
      this.stateDir = Objects.requireNonNull(stateDir, "stateDir");
      return this;
    }

    /** The image limits; default the protocol's (10 MiB per image, 20 MiB per message, 4 images). */
    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** How long one long poll of Telegram and of the host waits, 1 to 50 seconds; default 25. */
    public Builder pollWait(Duration wait) {
      requireBetween("pollWait", wait, Duration.ofSeconds(1), Duration.ofSeconds(50));
      this.pollWait = wait;
      return this;
    }

    /** How long to wait for more items of an album after the last one, 100 ms to 10 s; default 1.5 s. */
    public Builder albumWindow(Duration window) {
      requireBetween("albumWindow", window, Duration.ofMillis(100), Duration.ofSeconds(10));
      this.albumWindow = window;
      return this;
    }

    /** Whether streamed text is shown live by editing a draft message; default off. */
    public Builder liveEdits(boolean liveEdits) {
      this.liveEdits = liveEdits;
      return this;
    }

    /** The least time between two live edits in one chat; at least 1 s (Telegram's pace). */
    public Builder editInterval(Duration interval) {
      requireBetween("editInterval", interval, Duration.ofSeconds(1), Duration.ofMinutes(1));
      this.editInterval = interval;
      return this;
    }

    /** How often "typing" is repeated while the agent works, 1 to 5 s; default 4 s. */
    public Builder typingInterval(Duration interval) {
      requireBetween("typingInterval", interval, Duration.ofSeconds(1), Duration.ofSeconds(5));
      this.typingInterval = interval;
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

    /** The timeout of one Bot API request (uploads get four times as much); default 30 s. */
    public Builder requestTimeout(Duration timeout) {
      requireBetween("requestTimeout", timeout, Duration.ofSeconds(1), Duration.ofMinutes(10));
      this.requestTimeout = timeout;
      return this;
    }

    /**
     * Told of updates received, messages sent, 429 waits and each call's outcome (see
     * {@link TelegramListener}). Default {@link TelegramListener#NONE}.
     */
    public Builder listener(TelegramListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The HTTP client for the Bot API (proxies, TLS settings); default a new one. */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /** The media mode of every chat: {@link #mediaPrivate} and {@link #mediaGroups} at once. */
    public Builder media(MediaMode mode) {
      return mediaPrivate(mode).mediaGroups(mode);
    }

    /** The media mode of private chats; default {@link MediaMode#EAGER}. */
    public Builder mediaPrivate(MediaMode mode) {
      this.mediaPrivate = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** The media mode of groups, supergroups and channels; default {@link MediaMode#LAZY}. */
    public Builder mediaGroups(MediaMode mode) {
      this.mediaGroups = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** How long a lazy media reference stays fetchable, 1 s to 30 days; default 30 minutes. */
    public Builder mediaTtl(Duration ttl) {
      requireBetween("mediaTtl", ttl, Duration.ofSeconds(1), Duration.ofDays(30));
      this.mediaTtl = ttl;
      return this;
    }

    /** The most lazy media references kept (and saved in the state directory); default 10,000. */
    public Builder maxMediaRefs(int max) {
      if (max < 1 || max > 1_000_000) {
        throw new IllegalArgumentException("maxMediaRefs must be in 1..1000000 but was " + max);
      }
      this.maxMediaRefs = max;
      return this;
    }

    /**
     * Fetched images up to this many bytes are answered inline; larger ones and other files are
     * saved in the state directory's {@code media} folder and answered with their path. Default
     * 1,000,000 (the lazy-media spec's 1 MB); at most the image limit.
     */
    public Builder mediaInlineMaxBytes(long bytes) {
      if (bytes < 0 || bytes > limits.maxImageBytes()) {
        throw new IllegalArgumentException("mediaInlineMaxBytes must be in 0.." + limits.maxImageBytes() + " but was " + bytes);
      }
      this.mediaInlineMaxBytes = bytes;
      return this;
    }

    /** The clock lazy media references are stamped and expired by; default the system clock. */
    public Builder mediaClock(Clock clock) {
      this.mediaClock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** @throws IllegalStateException when a required setting is missing */
    public TelegramBridge build() {
      require(client, "client");
      require(instance, "instance");
      require(token, "token");
      require(allowedChats, "allowedChats");
      require(stateDir, "stateDir");
      HttpClient http = httpClient != null ? httpClient
          : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
      BridgeConfig config = new BridgeConfig(client, instance, allowedChats, refuseOtherChats, limits, stateDir,
          pollWait, albumWindow, liveEdits, editInterval, typingInterval, retryInitial, retryMax, attachments);
      MediaSettings media = new MediaSettings(mediaPrivate, mediaGroups, mediaTtl, maxMediaRefs, mediaInlineMaxBytes, mediaClock);
      BotApi api = new BotApi(apiUrl, token, http, requestTimeout);
      api.listener(listener);
      return new TelegramBridge(config, media, api);
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
