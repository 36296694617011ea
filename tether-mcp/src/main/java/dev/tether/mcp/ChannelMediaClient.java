package dev.tether.mcp;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Limits;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.media.MediaAnswer;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaItem;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The agent's side of lazy media over any {@link TetherClient}: what media the instance's
 * {@code user.message}s announced ({@link #list}), and the bytes of one item, asked of the channel
 * bridge that announced it with a {@code media.fetch} frame and read back from its
 * {@code control.media} answer ({@link #fetch}); see {@link MediaFrames} for the frames.
 *
 * <p><b>Index.</b> Announced items are read from the {@code media} field of {@code user.message}
 * payloads, never from placeholders in text (text can be forged by whoever writes a caption). The
 * client keeps a cursor and the newest {@value #MAX_INDEXED} items with the session they arrived
 * on, so each call reads only frames it has not seen; a fetch uses that session, which is the one
 * the bridge accepts for the item.
 *
 * <p><b>Waiting.</b> A fetch long-polls for the answer carrying its request's {@code msg_id}, up
 * to the fetch timeout (default 120 s), then fails with {@code UNAVAILABLE} (no bridge answered).
 * Nothing blocks a thread; the futures complete on the client's threads.
 *
 * <p>Thread-safe: the index is guarded by a lock held only while it is read or updated, never
 * across a poll.
 */
public final class ChannelMediaClient {
  /** The most announced items remembered. */
  static final int MAX_INDEXED = 10_000;
  private static final int MAX_PAGES_PER_REFRESH = 50;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final TetherClient client;
  private final String instance;
  private final Duration fetchTimeout;
  private final Limits limits;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final LinkedHashMap<String, Seen> index = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Seen> eldest) {
      return size() > MAX_INDEXED;
    }
  };
  private long cursor;

  /** An announced item and the session it arrived on. */
  public record Seen(SessionKey session, MediaItem item, long seq) {}

  private ChannelMediaClient(TetherClient client, String instance, Duration fetchTimeout, Limits limits, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.instance = Objects.requireNonNull(instance, "instance");
    if (instance.isBlank()) {
      throw new IllegalArgumentException("instance must not be blank");
    }
    this.fetchTimeout = Objects.requireNonNull(fetchTimeout, "fetchTimeout");
    if (fetchTimeout.isNegative() || fetchTimeout.isZero() || fetchTimeout.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException("fetchTimeout must be in (0, 1h] but was " + fetchTimeout);
    }
    this.limits = Objects.requireNonNull(limits, "limits");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A client for {@code instance} with the default fetch timeout (120 s) and limits. */
  public static ChannelMediaClient of(TetherClient client, String instance) {
    return of(client, instance, Duration.ofSeconds(120));
  }

  /** A client for {@code instance} that waits at most {@code fetchTimeout} for a bridge's answer. */
  public static ChannelMediaClient of(TetherClient client, String instance, Duration fetchTimeout) {
    return new ChannelMediaClient(client, instance, fetchTimeout, Limits.defaults(), Clock.systemUTC());
  }

  /** The instance this client reads and asks. */
  public String instance() {
    return instance;
  }

  /** The items announced on the instance that have not expired, newest first. */
  public CompletableFuture<List<Seen>> list() {
    return refresh(0).thenApply(ignored -> {
      Instant now = clock.instant();
      List<Seen> live = new ArrayList<>();
      lock.lock();
      try {
        for (Seen s : index.values()) {
          if (!s.item().isExpiredAt(now)) {
            live.add(s);
          }
        }
      } finally {
        lock.unlock();
      }
      live.sort(Comparator.comparingLong(Seen::seq).reversed());
      return live;
    });
  }

  /** The announced item with this ref, if the instance's retained messages announced it. */
  public CompletableFuture<Optional<Seen>> find(String ref) {
    return refresh(0).thenApply(ignored -> {
      lock.lock();
      try {
        return Optional.ofNullable(index.get(ref));
      } finally {
        lock.unlock();
      }
    });
  }

  /**
   * Asks the bridge for the bytes of {@code ref}, on {@code session} when given, else on the
   * session the item was announced on. The future completes with the bridge's answer (a
   * {@link MediaAnswer.Failed} included), or fails with a {@link TetherException}:
   * {@code UNKNOWN_REF} when no session is given and no retained message announced the ref,
   * {@code UNAVAILABLE} when no answer came within the fetch timeout, {@code MALFORMED_FRAME}
   * (or an image's code) when the answer is not a valid one.
   */
  public CompletableFuture<MediaAnswer> fetch(String ref, Optional<SessionKey> session) {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(session, "session");
    CompletableFuture<SessionKey> target = session.isPresent()
        ? CompletableFuture.completedFuture(session.get())
        : find(ref).thenApply(seen -> seen.map(Seen::session).orElseThrow(() -> TetherException.of(ErrorCode.UNKNOWN_REF,
            "media ref:" + ref + " is not announced by any message the instance still holds; pass session_id (and"
                + " channel) of the chat it came from, or use list_media to see the available references")));
    return target.thenCompose(s -> ask(s, ref));
  }

  private CompletableFuture<MediaAnswer> ask(SessionKey session, String ref) {
    String msgId = newMsgId();
    Frame request = MediaFrames.fetchRequest(session, msgId, ref);
    long deadline = System.nanoTime() + fetchTimeout.toNanos();
    return client.send(instance, request)
        .thenCompose(receipt -> awaitAnswer(session, msgId, Math.max(0, receipt.ingressSeq() - 1), deadline, ref));
  }

  private CompletableFuture<MediaAnswer> awaitAnswer(SessionKey session, String msgId, long after, long deadline, String ref) {
    long leftMs = (deadline - System.nanoTime()) / 1_000_000;
    if (leftMs <= 0) {
      return CompletableFuture.failedFuture(TetherException.of(ErrorCode.UNAVAILABLE, "no answer to the request for media ref:"
          + ref + " within " + fetchTimeout.toSeconds() + " s; is the channel bridge (tether telegram) running for instance "
          + instance + "?"));
    }
    PollRequest poll = new PollRequest(session.channel(), session.id(), after, 1,
        Math.min(PollRequest.MAX_WAIT_MS, leftMs), Set.of(MediaFrames.ANSWER), msgId);
    return client.poll(instance, poll).thenCompose(page -> {
      if (!page.frames().isEmpty()) {
        return CompletableFuture.completedFuture(MediaFrames.parseAnswer(page.frames().get(0), limits));
      }
      return awaitAnswer(session, msgId, after, deadline, ref); // the wait ended: wait again until the deadline
    });
  }

  /** Reads the {@code user.message}s after the cursor (at most a bounded number of pages per call) into the index. */
  private CompletableFuture<Void> refresh(int pages) {
    long from;
    lock.lock();
    try {
      from = cursor;
    } finally {
      lock.unlock();
    }
    PollRequest poll = new PollRequest(null, null, from, PollRequest.MAX_LIMIT, 0, Set.of(FrameTypes.USER_MESSAGE), null);
    return client.poll(instance, poll).thenCompose(page -> {
      boolean more = index(page, from);
      return more && pages + 1 < MAX_PAGES_PER_REFRESH ? refresh(pages + 1) : CompletableFuture.completedFuture(null);
    });
  }

  /** Adds the page's announced items; whether another page may follow. */
  private boolean index(FramePage page, long from) {
    lock.lock();
    try {
      for (Frame frame : page.frames()) {
        if (frame.seq() <= cursor || frame.session().isEmpty()) {
          continue;
        }
        try {
          if (frame.payloadView() instanceof Payload.UserMessage m) {
            for (MediaItem item : MediaFrames.mediaOf(m)) {
              index.put(item.ref(), new Seen(frame.session().get(), item, frame.seq()));
            }
          }
        } catch (TetherException unreadable) {
          // a message whose payload breaks the wire's rules announces nothing
        }
      }
      long next = Math.max(cursor, page.nextSeq());
      boolean advanced = next > from;
      cursor = next;
      return advanced && !page.frames().isEmpty();
    } finally {
      lock.unlock();
    }
  }

  private static String newMsgId() {
    byte[] bytes = new byte[9];
    RANDOM.nextBytes(bytes);
    return "media-" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
