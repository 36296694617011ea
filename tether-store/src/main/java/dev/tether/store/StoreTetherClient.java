package dev.tether.store;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.ImageRefs;
import dev.tether.api.blobs.BlobStore;
import dev.tether.api.MsgIds;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import dev.tether.images.FrameValidator;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The in-process {@link TetherClient}: a send is an append to a {@link TetherStore}, a poll is the
 * store's own asynchronous wait. Bridges and the MCP tools run unchanged over it and over the HTTP
 * client of {@code tether serve}.
 *
 * <p>It answers as {@code tether serve}'s HTTP API does. A send is validated with the
 * {@link FrameValidator}, gets a host {@code msg_id} when it has none and the {@code default}
 * session on the {@code host} channel when it names none, and completes with the seq it was
 * stored at. A poll is {@link PollRequest} as a {@link FrameQuery}: a null channel or session
 * means any, the limit and types as given, {@code reply_to_msg_id} when set, and a wait of
 * {@code waitMs} (0 answers at once). Cancelling a poll's future removes the store's wait. With a
 * {@link Builder#blobs blob store} per instance, every blob ref on a page is made inline (a blob that cannot be
 * read leaves its frame as stored, so the reader sees a ref it can report).
 *
 * <p>Failures complete the future exceptionally: a {@link TetherException} for a frame the
 * validator refuses or an instance {@link Builder#knownInstances} does not know
 * ({@code INSTANCE_NOT_FOUND}); whatever the store throws otherwise. Thread-safe; {@link #close()}
 * does not close the store, which belongs to the caller.
 *
 * <p>It is not a {@code dev.tether.client.AttachmentClient}: a {@link TetherStore} keeps frames
 * only, and session attachments are files a server keeps per instance (with their names
 * sanitised, a size cap and a disk budget), which this client has nowhere to put. The in-process
 * client of a running server ({@code TetherServer.localClient()}) is one, over that server's files.
 */
public final class StoreTetherClient implements TetherClient {
  private final TetherStore store;
  private final Predicate<String> knownInstances;
  private final FrameValidator validator;
  private final Function<String, BlobStore> blobs;

  private StoreTetherClient(Builder b) {
    this.store = b.store;
    this.knownInstances = b.knownInstances;
    this.validator = b.validator;
    this.blobs = b.blobs;
  }

  /** A client over {@code store} that knows every instance name and resolves no blob refs. */
  public static StoreTetherClient of(TetherStore store) {
    return builder(store).build();
  }

  public static Builder builder(TetherStore store) {
    return new Builder(store);
  }

  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    try {
      requireKnown(instance);
      Objects.requireNonNull(frame, "frame");
      validator.validate(frame);
      String msgId = frame.msgId().orElseGet(MsgIds::host);
      SessionKey session = frame.session().orElse(SessionKey.host(SessionKey.DEFAULT_ID));
      Frame stored = frame.msgId().isPresent() && frame.session().isPresent()
          ? frame : frame.toBuilder().msgId(msgId).session(session).build();
      long seq = store.append(instance, stored);
      return CompletableFuture.completedFuture(new SendReceipt(msgId, session.id(), seq));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<FramePage> poll(String instance, PollRequest request) {
    CompletableFuture<QueryResult> wait;
    try {
      requireKnown(instance);
      wait = store.waitForFrames(instance, query(request), Duration.ofMillis(request.waitMs()));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<FramePage> page = wait.thenApply(r -> page(instance, r));
    // Cancelling the page (the caller gave up) removes the store's wait at once.
    page.whenComplete((p, t) -> {
      if (page.isCancelled()) {
        wait.cancel(false);
      }
    });
    return page;
  }

  /** {@code request} as the store query {@code tether serve}'s poll endpoint would run. */
  static FrameQuery query(PollRequest request) {
    return FrameQuery.builder()
        .channel(request.channel())
        .sessionId(request.sessionId())
        .afterSeq(request.afterSeq())
        .limit(request.limit())
        .types(request.types())
        .replyToMsgId(request.replyToMsgId())
        .build();
  }

  private FramePage page(String instance, QueryResult r) {
    List<Frame> frames = blobs == null ? r.frames() : inline(instance, r.frames());
    return new FramePage(frames, r.nextSeq(), r.timedOut(), r.gap(), r.gap() ? r.oldestSeq() : 0);
  }

  private List<Frame> inline(String instance, List<Frame> frames) {
    List<Frame> out = null;
    for (int i = 0; i < frames.size(); i++) {
      Frame f = frames.get(i);
      Frame resolved = inlineOrAsStored(instance, f);
      if (resolved != f && out == null) {
        out = new ArrayList<>(frames.subList(0, i));
      }
      if (out != null) {
        out.add(resolved);
      }
    }
    return out == null ? frames : out;
  }

  private Frame inlineOrAsStored(String instance, Frame f) {
    try {
      if (!ImageRefs.hasRefs(f)) {
        return f;
      }
      return ImageRefs.inline(f, ImageRefs.reader(blobs.apply(instance)));
    } catch (IOException | RuntimeException e) {
      return f; // a blob gone since, or one that fails its checks: the reader gets the ref
    }
  }

  private void requireKnown(String instance) {
    Objects.requireNonNull(instance, "instance");
    if (instance.isEmpty() || !knownInstances.test(instance)) {
      throw TetherException.of(ErrorCode.INSTANCE_NOT_FOUND, "no instance named '" + instance + "'");
    }
  }

  /** Does nothing: the store belongs to the caller, and a pending wait ends with its own timeout. */
  @Override
  public void close() {}

  /** For diagnostics. */
  @Override
  public String toString() {
    return "StoreTetherClient{" + store + "}";
  }

  /** Configures a {@link StoreTetherClient}. Not thread-safe. */
  public static final class Builder {
    private final TetherStore store;
    private Predicate<String> knownInstances = name -> true;
    private FrameValidator validator = FrameValidator.standard();
    private Function<String, BlobStore> blobs;

    private Builder(TetherStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Which instance names exist; sends and polls to others fail with {@code INSTANCE_NOT_FOUND}
     * (the store itself creates an instance on first use, so it cannot tell). Default: every name.
     */
    public Builder knownInstances(Predicate<String> knownInstances) {
      this.knownInstances = Objects.requireNonNull(knownInstances, "knownInstances");
      return this;
    }

    /** The validator (and so the limits) every sent frame must pass. Default: the standard one. */
    public Builder validator(FrameValidator validator) {
      this.validator = Objects.requireNonNull(validator, "validator");
      return this;
    }

    /**
     * Where the blob refs of polled frames are read, to return their images inline: the blob
     * store of each instance, read through {@link ImageRefs#reader} (bytes verified against the
     * key, sizes against the ref). Default: none.
     */
    public Builder blobs(Function<String, BlobStore> perInstance) {
      this.blobs = Objects.requireNonNull(perInstance, "perInstance");
      return this;
    }

    public StoreTetherClient build() {
      return new StoreTetherClient(this);
    }
  }
}
