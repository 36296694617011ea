package dev.tether.store.jetstream;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.FrameTypes;
import dev.tether.api.TetherException;
import dev.tether.store.Retention;
import dev.tether.store.StoreListener;
import dev.tether.store.TetherStore;
import dev.tether.store.jetstream.internal.AppendCounts;
import dev.tether.store.jetstream.internal.Appender;
import dev.tether.store.jetstream.internal.ImageOffload;
import dev.tether.store.jetstream.internal.InstanceMirror;
import dev.tether.store.jetstream.internal.Names;
import dev.tether.store.jetstream.internal.StreamAdmin;
import io.nats.client.impl.Headers;
import io.nats.client.support.NatsJetStreamConstants;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The write half of the store: turns a frame into a message on its instance's stream and returns
 * the stream sequence JetStream acknowledged. Creates or opens the stream once per process (an
 * append needs no view), moves large frames' images to the instance's bucket, routes transient
 * deltas to the rolled-up delta slots, gives each message a {@code Nats-Msg-Id} so a retried
 * publish is stored once, and counts acknowledged appends for the store's listener.
 *
 * <p>Concurrency: thread-safe. The stream cache and the per-instance counts are concurrent and
 * bounded (cleared, or one entry released, at {@link #MAX_KNOWN_STREAMS}); message ids and delta
 * slots come from atomic counters. The stream lookup and the image offload block the calling
 * thread; the acknowledgement is awaited without a thread and the returned future completes on a
 * jnats or retry thread, so the store relays it to callers through its executor.
 */
final class FramePublisher {
  /** The most instances whose stream or append counts this process remembers. */
  static final int MAX_KNOWN_STREAMS = 100_000;

  private final Appender appender;
  private final StreamAdmin admin;
  private final Names names;
  private final Retention retention;
  private final InstanceBlobs blobs;
  private final Views views;
  private final StoreListener listener;
  private final long maxPayload;
  private final int inlineImageBytes;
  private final Duration appendTimeout;
  private final String origin;
  private final Lifecycle lifecycle;
  private final AtomicLong msgIds = new AtomicLong();
  private final AtomicLong deltaSlots = new AtomicLong();
  /** Instances whose stream this process created or opened (a bounded cache). */
  private final Set<String> streams = ConcurrentHashMap.newKeySet();
  /**
   * The appends this host published, per instance (only with a listener): created on the first
   * acknowledged append, released when the instance is removed or the store closes, or when more
   * than {@link #MAX_KNOWN_STREAMS} instances are counted (the listener folds released counts).
   */
  private final ConcurrentHashMap<String, AppendCounts> appendCounts = new ConcurrentHashMap<>();

  /**
   * @param origin this process's id among the hosts, the prefix of its message ids
   * @param maxPayload the server's {@code max_payload}: the largest message it takes
   */
  FramePublisher(Appender appender, StreamAdmin admin, Names names, Retention retention, InstanceBlobs blobs, Views views,
      StoreListener listener, long maxPayload, int inlineImageBytes, Duration appendTimeout, String origin,
      Lifecycle lifecycle) {
    this.appender = appender;
    this.admin = admin;
    this.names = names;
    this.retention = retention;
    this.blobs = blobs;
    this.views = views;
    this.listener = listener;
    this.maxPayload = maxPayload;
    this.inlineImageBytes = inlineImageBytes;
    this.appendTimeout = appendTimeout;
    this.origin = origin;
    this.lifecycle = lifecycle;
  }

  /**
   * Publishes {@code frame} to {@code instance}'s stream; the future gives its seq once the stream
   * acknowledged it, or fails with {@link StoreUnavailableException} after the append timeout.
   *
   * @throws TetherException {@code FRAME_TOO_LARGE} when the frame without its images exceeds the
   *     server's {@code max_payload}
   * @throws StoreUnavailableException when the stream or the image bucket cannot be reached
   */
  CompletableFuture<Long> publish(String instance, Frame frame) {
    TetherStore.requireInstance(instance);
    Objects.requireNonNull(frame, "frame");
    lifecycle.checkOpen();
    ensureStream(instance); // an append needs the stream, not a view: a host that only writes holds no consumer
    Frame stored = frame.seq() == 0 ? frame : frame.withSeq(0);
    // Decided on the payload's size, so a frame of images is encoded once, after its offload.
    if (stored.hasPayload() && stored.payload().size() > inlineImageBytes && ImageOffload.mayHaveImages(stored)) {
      try {
        stored = ImageOffload.toRefs(stored, blobs.bucket(instance));
      } catch (IOException e) {
        throw StreamAdmin.unavailable(instance, appendTimeout, e);
      }
    }
    byte[] body = FrameCodec.standard().write(stored);
    if (body.length > maxPayload) {
      throw TetherException.of(ErrorCode.FRAME_TOO_LARGE, "the frame is " + body.length
          + " bytes without its images; the NATS server takes at most " + maxPayload
          + " bytes per message (max_payload). Send long text in several frames.");
    }
    views.budget().makeRoom(instance, stored.payload().size()); // the frame comes back to this host's view
    String msgId = "tether-" + origin + "-" + msgIds.incrementAndGet();
    long deadline = System.nanoTime() + appendTimeout.toNanos();
    String subject;
    Headers headers = null;
    if (!retention.deltasInRing() && FrameTypes.isDelta(stored.type())) {
      // A transient delta: one of the rolled-up slots, so the stream keeps only the newest few.
      subject = names.deltaSubject(instance, (int) Math.floorMod(deltaSlots.getAndIncrement(), (long) StreamAdmin.DELTA_SLOTS));
      headers = new Headers().put(NatsJetStreamConstants.ROLLUP_HDR, NatsJetStreamConstants.ROLLUP_HDR_SUBJECT);
    } else {
      subject = names.subject(instance, stored.session().orElse(null));
    }
    long publishedAt = listener == StoreListener.NONE ? 0 : System.nanoTime();
    String type = stored.type();
    long payloadBytes = stored.payload().size();
    return appender.publish(names.stream(instance), subject, headers, body, msgId, deadline)
        .handle((seq, e) -> {
          if (e != null) {
            throw StreamAdmin.unavailable(instance, appendTimeout, e);
          }
          if (publishedAt != 0) {
            listener.committed("jetstream", 1, System.nanoTime() - publishedAt);
            appendCounts(instance).appended(type, payloadBytes);
          }
          InstanceMirror m = views.current(instance);
          if (m != null) {
            m.noteAcked(seq); // a view started later reads the stream's last seq, which covers it
            m.touch();
          }
          return seq;
        });
  }

  /** Releases the append counts of {@code instance}; an append completing just now may go uncounted. */
  void releaseCounts(String instance) {
    AppendCounts c = appendCounts.remove(instance);
    if (c != null) {
      c.listener().released(instance, c);
    }
  }

  /** Releases every instance's append counts; for the store's close. */
  void close() {
    for (String name : new ArrayList<>(appendCounts.keySet())) {
      releaseCounts(name);
    }
  }

  /** Creates or opens the instance's stream once per process (appends need nothing more). */
  private void ensureStream(String instance) {
    if (streams.contains(instance)) {
      return;
    }
    if (views.current(instance) == null) {
      admin.open(instance, true);
    }
    if (streams.size() >= MAX_KNOWN_STREAMS) {
      streams.clear(); // a cache: forgetting only costs one stream lookup per instance
    }
    streams.add(instance);
  }

  /** The append counts of {@code instance}, created (and handed to the listener) on first use. */
  private AppendCounts appendCounts(String instance) {
    AppendCounts c = appendCounts.get(instance);
    if (c != null) {
      return c;
    }
    if (appendCounts.size() >= MAX_KNOWN_STREAMS) {
      // Bounded like the stream cache: release some instance's counts (its meters keep their totals).
      for (String other : appendCounts.keySet()) {
        releaseCounts(other);
        break;
      }
    }
    return appendCounts.computeIfAbsent(instance, n -> new AppendCounts(n, listener));
  }
}
