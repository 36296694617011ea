package dev.tether.telegram.internal;

import dev.tether.api.Frame;
import dev.tether.api.Image;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.User;
import dev.tether.chat.HostForwarder;
import dev.tether.client.AttachmentInfo;
import dev.tether.images.ByteSizes;
import dev.tether.telegram.TelegramChat;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Telegram to tether: long-polls {@code getUpdates} and forwards each message of an allowed chat
 * as a {@code user.message} on session channel {@code telegram}.
 *
 * <p><b>Confirmation.</b> An update counts as handled once its frame was accepted by the host (or
 * the update was skipped or explained); only then is its id written to the state file, and only
 * the next {@code getUpdates} (with {@code offset} = that id + 1) confirms it to Telegram. A crash
 * before the state write re-delivers the update (at least once); updates re-delivered after the
 * write are recognised by their id and skipped, so a restart forwards nothing twice.
 *
 * <p><b>Albums.</b> The items of an album ({@code media_group_id}) arrive as separate, consecutive
 * updates, possibly over several polls. The bridge holds them without confirming them, polling
 * without waiting every {@value #ALBUM_POLL_MS} ms, until an update that is not part of the album
 * arrives, ten items are in, or no new item came for the album window; then it forwards them as
 * one message: the first {@code maxImagesPerMessage} images that pass the checks, in order, with
 * the album's caption as text. Items left out are counted in one notice to the chat.
 *
 * <p>Runs on one thread ({@link #run}); not thread-safe otherwise. It ends when the {@link Stopper} fires.
 */
final class Ingress {
  static final long ALBUM_POLL_MS = 200;
  private static final int MAX_ALBUM_ITEMS = 10;
  private static final int MAX_REMEMBERED_CHATS = 10_000;
  static final String STATE_KEY = "confirmed_update_id";

  private final BridgeConfig config;
  private final BotApi api;
  private final Retrier retrier;
  private final ImageFetcher fetcher;
  private final DocumentAttacher attacher; // null: documents that are not images are refused
  private final Notices notices;
  private final BridgeLog log;
  private final StateFile state;
  private final Set<Long> refusedChats = new HashSet<>();
  private final LazyMedia lazy;
  /** Sends each message's frame to the host until it is taken (the core's). */
  private final HostForwarder forwarder;

  private long confirmed;
  private long lastSeen;
  private Album album;

  Ingress(BridgeConfig config, BotApi api, Retrier retrier, BridgeLog log, StateFile state, LazyMedia lazy) {
    this.lazy = Objects.requireNonNull(lazy, "lazy");
    this.config = Objects.requireNonNull(config, "config");
    this.api = Objects.requireNonNull(api, "api");
    this.retrier = Objects.requireNonNull(retrier, "retrier");
    this.forwarder = new HostForwarder(config.host(), retrier.core(), log.chat());
    this.log = Objects.requireNonNull(log, "log");
    this.state = Objects.requireNonNull(state, "state");
    this.fetcher = new ImageFetcher(api, retrier, config.limits());
    this.attacher = config.attachments() == null ? null
        : new DocumentAttacher(api, retrier, config.attachments(), config.instance());
    this.notices = new Notices(api, retrier, log);
    this.confirmed = state.get(STATE_KEY);
    this.lastSeen = confirmed;
  }

  /** Polls and forwards until the bridge stops. */
  void run() {
    while (!retrier.stopping()) {
      try {
        pollOnce();
      } catch (InterruptedIOException e) {
        return;
      } catch (IOException | RuntimeException e) {
        // A permanent getUpdates failure (401 after a token was revoked, 409 when a webhook is set),
        // a state file that cannot be written, or a bug: keep trying slowly, the operator sees the log.
        log.warn("telegram ingress: " + log.describe(e) + "; retrying in 5 s");
        try {
          retrier.sleep(5000);
        } catch (InterruptedIOException stop) {
          return;
        }
      }
    }
  }

  private void pollOnce() throws IOException {
    int wait = album == null ? (int) Math.max(0, config.pollWait().toSeconds()) : 0;
    long offset = confirmed == 0 ? 0 : confirmed + 1;
    List<BotTypes.Update> updates = retrier.call("getUpdates", () -> api.getUpdates(offset, wait));
    for (BotTypes.Update u : updates) {
      if (u.updateId() <= lastSeen) {
        continue; // held in the album, or handled before a restart but not yet confirmed to Telegram
      }
      lastSeen = u.updateId();
      BotTypes.Message m = u.message();
      if (album != null && !album.accepts(m)) {
        flushAlbum();
      }
      if (m != null && m.mediaGroupId() != null && config.allowed(m.chat().id())
          && (lazy.isLazy(m) ? LazyMedia.hasMedia(m) : ImageFetcher.hasFile(m))) {
        if (album == null) {
          album = new Album(m.mediaGroupId(), m.chat().id());
        }
        album.add(u.updateId(), m);
        continue;
      }
      try {
        handle(u);
      } catch (RuntimeException e) {
        // A shape of update this code did not foresee: skip it rather than stop the loop on it forever.
        log.warn("skipped update " + u.updateId() + ": " + log.describe(e));
      }
      confirm(u.updateId());
    }
    if (album != null) {
      long quietMs = (System.nanoTime() - album.lastAddedNanos) / 1_000_000;
      if (album.items.size() >= MAX_ALBUM_ITEMS || quietMs >= config.albumWindow().toMillis()) {
        flushAlbum();
      } else {
        retrier.sleep(Math.min(ALBUM_POLL_MS, config.albumWindow().toMillis() - quietMs));
      }
    }
  }

  private void confirm(long updateId) throws IOException {
    if (updateId > confirmed) {
      state.put(STATE_KEY, updateId);
      confirmed = updateId;
    }
  }

  /** One update that is not part of an album. */
  private void handle(BotTypes.Update u) throws IOException {
    BotTypes.Message m = u.message();
    if (m == null) {
      log.info("skipped update " + u.updateId() + " (" + u.kind() + "): the bridge handles new messages only");
      return;
    }
    if (!config.allowed(m.chat().id())) {
      refuse(m);
      return;
    }
    TelegramChat chat = chatOf(m);
    if (lazy.isLazy(m) && LazyMedia.hasMedia(m)) {
      forwardAnnounced(chat, List.of(m)); // nothing downloaded: the agent fetches what it needs
      return;
    }
    if (!m.hasContent()) {
      log.info("skipped update " + u.updateId() + " from " + chat + ": a message without text, photo or document");
      return;
    }
    if (attacher != null && DocumentAttacher.applies(m)) {
      attach(u, chat, m);
      return;
    }
    List<Image> images = new ArrayList<>(1);
    if (ImageFetcher.hasFile(m)) {
      ImageFetcher.Result result = fetcher.fetch(m);
      if (result instanceof ImageFetcher.Refused refused) {
        log.info("not forwarded: update " + u.updateId() + " from " + chat + ": " + refused.explanation());
        notices.send(chat, refused.explanation());
        return;
      } else if (result instanceof ImageFetcher.Fetched fetched) {
        images.add(fetched.image());
      }
    }
    forward(chat, m, lazy.isLazy(m) ? LazyMedia.safeText(textOf(m)) : textOf(m), images, Map.of());
  }

  /** A lazy chat's message or album: placeholders and references, no download. */
  private void forwardAnnounced(TelegramChat chat, List<BotTypes.Message> messages) throws IOException {
    LazyMedia.Announced announced = lazy.announce(chat, messages);
    if (announced.text().isEmpty()) {
      log.info("skipped a message from " + chat + ": its media came without a file id and it has no text");
      return;
    }
    forward(chat, messages.get(0), announced.text(), List.of(), announced.extra());
  }

  /** A document that is not an image: stored as a session attachment, then named in the forwarded message. */
  private void attach(BotTypes.Update u, TelegramChat chat, BotTypes.Message m) throws IOException {
    DocumentAttacher.Result result = attacher.attach(m, new SessionKey(TelegramChat.CHANNEL, chat.sessionId()));
    if (result instanceof DocumentAttacher.Refused refused) {
      log.info("not forwarded: update " + u.updateId() + " from " + chat + ": " + refused.explanation());
      notices.send(chat, refused.explanation());
      return;
    }
    AttachmentInfo stored = ((DocumentAttacher.Stored) result).attachment();
    String caption = textOf(m);
    forward(chat, m, caption.isEmpty() ? stored.notice() : caption + "\n" + stored.notice(), List.of(),
        Map.of("attachments", RawJson.of(AttachmentInfo.payloadJson(List.of(stored)))));
  }

  private void refuse(BotTypes.Message m) throws InterruptedIOException {
    long chatId = m.chat().id();
    if (refusedChats.size() < MAX_REMEMBERED_CHATS && refusedChats.add(chatId)) {
      log.info("ignored messages from chat " + chatId + ": it is not in the allowed chats");
      if (config.refuseOthers()) {
        notices.send(chatOf(m), "This bot only answers the chats it was set up for; this chat (id " + chatId
            + ") is not one of them.");
      }
    }
  }

  private void flushAlbum() throws IOException {
    Album a = album;
    album = null;
    TelegramChat chat = chatOf(a.items.get(0));
    if (lazy.isLazy(a.items.get(0))) {
      forwardAnnounced(chat, a.items);
      confirm(a.lastUpdateId);
      return;
    }
    int max = config.limits().maxImagesPerMessage();
    List<Image> images = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    long total = 0;
    int leftOut = 0;
    for (BotTypes.Message m : a.items) {
      if (images.size() >= max) {
        leftOut++;
        continue; // not even downloaded
      }
      ImageFetcher.Result result = fetcher.fetch(m);
      if (result instanceof ImageFetcher.Refused refused) {
        problems.add(refused.explanation());
      } else if (result instanceof ImageFetcher.Fetched fetched) {
        long size = fetched.image().decodedSize();
        if (total + size > config.limits().maxFrameImageBytes()) {
          leftOut++;
        } else {
          total += size;
          images.add(fetched.image());
        }
      }
    }
    String caption = a.items.stream().map(Ingress::textOf).filter(t -> !t.isEmpty()).findFirst().orElse("");
    if (leftOut > 0) {
      problems.add("I passed on the first " + images.size() + " of the " + a.items.size() + " items of this album: "
          + "one message takes at most " + max + " images (" + ByteSizes.binaryRounded(config.limits().maxFrameImageBytes())
          + " in all), so " + leftOut + (leftOut == 1 ? " was" : " were") + " left out. Send them in another message.");
    }
    for (String problem : problems) {
      notices.send(chat, problem);
    }
    if (!images.isEmpty() || !caption.isEmpty()) {
      forward(chat, a.items.get(0), caption, images, Map.of());
    }
    confirm(a.lastUpdateId);
  }

  /**
   * Sends the message to the host, retrying while the host is unreachable. A host that refuses the
   * frame (a {@link TetherException}) is told to the chat; the message is then dropped.
   */
  private void forward(TelegramChat chat, BotTypes.Message m, String text, List<Image> images) throws IOException {
    forward(chat, m, text, images, Map.of());
  }

  private void forward(TelegramChat chat, BotTypes.Message m, String text, List<Image> images,
      Map<String, RawJson> extra) throws IOException {
    Optional<User> user = m.from() == null ? Optional.empty()
        : Optional.of(new User(Long.toString(m.from().id()), nameOf(m.from())));
    Payload.UserMessage payload = new Payload.UserMessage(text, images, user, extra);
    Frame frame = Frame.of(new SessionKey(TelegramChat.CHANNEL, chat.sessionId()), msgIdOf(m), payload);
    Optional<TetherException> refused = forwarder.forward(frame, chat, "message " + m.messageId());
    if (refused.isPresent()) {
      notices.send(chat, "The agent's host did not accept this message: " + refused.get().getMessage());
    }
  }

  static TelegramChat chatOf(BotTypes.Message m) {
    Long topic = m.topic();
    return topic == null ? TelegramChat.of(m.chat().id()) : TelegramChat.topic(m.chat().id(), topic);
  }

  /** The frame's msg_id: stable for a Telegram message, so a re-delivered one keeps its id. */
  static String msgIdOf(BotTypes.Message m) {
    return "tg-" + m.chat().id() + "-" + m.messageId();
  }

  static String textOf(BotTypes.Message m) {
    return m.text() != null ? m.text() : m.caption() != null ? m.caption() : "";
  }

  private static String nameOf(BotTypes.User u) {
    return u.firstName() != null ? u.firstName() : u.username() != null ? u.username() : "";
  }

  /** The items of one album so far, in arrival order. */
  private static final class Album {
    final String groupId;
    final long chatId;
    final List<BotTypes.Message> items = new ArrayList<>();
    long lastUpdateId;
    long lastAddedNanos;

    Album(String groupId, long chatId) {
      this.groupId = groupId;
      this.chatId = chatId;
    }

    boolean accepts(BotTypes.Message m) {
      return m != null && groupId.equals(m.mediaGroupId()) && chatId == m.chat().id() && items.size() < MAX_ALBUM_ITEMS;
    }

    void add(long updateId, BotTypes.Message m) {
      items.add(m);
      lastUpdateId = updateId;
      lastAddedNanos = System.nanoTime();
    }
  }
}
