package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.ImageRefs;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.AttachmentClient;
import dev.tether.client.AttachmentInfo;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import dev.tether.images.FrameValidator;
import dev.tether.store.StoreTetherClient;
import dev.tether.store.TetherStore;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The in-process client of a running daemon: the HTTP API's registry and validation without the
 * HTTP hop. An unknown instance is {@code INSTANCE_NOT_FOUND} unless the registry auto-creates;
 * polled blob refs come back inline from the instance's workspace; with {@code blobImages}, a
 * sent frame's inline images are first stored in that workspace's blob store and sent as refs (as
 * {@code POST .../blob} would). Its attachments are the HTTP routes' ({@link LocalAttachments}):
 * the same store, caps, disk budget and codes. The client of a mounted handler ({@code /mcp}) stands
 * for HTTP clients, so its sends and uploads count against the ingress rate limits of their
 * instance, in the same buckets as the routes' (a refusal is {@code RATE_LIMITED} naming the wait);
 * the daemon's own client ({@code serve --with-agent}) is not limited. Thread-safe; closing it
 * leaves the daemon running.
 */
final class LocalClient implements TetherClient, AttachmentClient {
  private final InstanceRegistry registry;
  private final FrameValidator validator;
  private final boolean blobImages;
  private final Blobs blobs;
  private final StoreTetherClient delegate;
  private final LocalAttachments attachments;
  private final WakeTracker wake;
  private final IngressRateLimits rates; // null: not limited

  /**
   * A client of {@code store}'s instances, telling {@code wake} of its polls (readers) and of the
   * frames it sends, its sends and uploads held to {@code rates} (null: not limited).
   */
  LocalClient(TetherStore store, InstanceRegistry registry, FrameValidator validator, Blobs blobs,
      LocalAttachments attachments, boolean blobImages, WakeTracker wake, IngressRateLimits rates) {
    this.rates = rates;
    this.attachments = attachments;
    this.wake = wake;
    this.registry = registry;
    this.validator = validator;
    this.blobImages = blobImages;
    this.blobs = blobs;
    this.delegate = StoreTetherClient.builder(store)
        .knownInstances(this::known)
        .validator(validator)
        .blobs(instance -> blobs.of(registry.require(instance)))
        .build();
  }

  private boolean known(String instance) {
    try {
      registry.require(instance);
      return true;
    } catch (TetherException | IllegalArgumentException e) {
      return false;
    }
  }

  /** Sends as {@link #store} does, and logs what the host accepted or refused as HTTP ingress does ({@link IngressLog}). */
  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    TetherException limited = rateLimited(instance);
    CompletableFuture<SendReceipt> sent = limited != null ? CompletableFuture.failedFuture(limited) : store(instance, frame);
    if (wake != WakeTracker.NONE) {
      sent = sent.whenComplete((receipt, failure) -> {
        if (failure == null) {
          wake.arrived(instance, frame.type());
        }
      });
    }
    if (!IngressLog.enabled()) {
      return sent; // no extra stage per send unless DEBUG is on
    }
    return sent.whenComplete((receipt, failure) -> {
      if (failure == null) {
        IngressLog.accepted(instance, frame.toBuilder().msgId(receipt.msgId()).build(), receipt.ingressSeq());
      } else {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        IngressLog.refused(instance, cause instanceof TetherException e ? e.code() : ErrorCode.INTERNAL, cause.getMessage());
      }
    });
  }

  /**
   * Counts an ingress request into {@code instance} against its rate, as the routes do for a
   * request of the host; returns the refusal past it, else null (and null for an instance the
   * registry does not know: the send or upload itself then answers {@code INSTANCE_NOT_FOUND}).
   */
  private TetherException rateLimited(String instance) {
    if (rates == null) {
      return null;
    }
    String id;
    try {
      id = registry.require(instance).id();
    } catch (TetherException | IllegalArgumentException e) {
      return null;
    }
    long wait = rates.admit(id, null);
    return wait == 0 ? null
        : TetherException.of(ErrorCode.RATE_LIMITED, rates.refusal(id, IngressRateLimits.retryAfterSeconds(wait)));
  }

  private CompletableFuture<SendReceipt> store(String instance, Frame frame) {
    if (!blobImages || !known(instance)) {
      return delegate.send(instance, frame);
    }
    try {
      validator.validate(frame);
      InstanceRegistry.Entry entry = registry.require(instance);
      Frame refs = ImageRefs.toRefs(frame, (bytes, type) -> this.blobs.put(entry, type, bytes, bytes.length).fileName());
      return delegate.send(instance, refs);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(TetherException.of(ErrorCode.INTERNAL, "cannot store the frame's images: " + e.getMessage()));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<FramePage> poll(String instance, PollRequest request) {
    if (wake == WakeTracker.NONE || !known(instance)) {
      return delegate.poll(instance, request);
    }
    wake.readerStarted(instance);
    CompletableFuture<FramePage> page;
    try {
      page = delegate.poll(instance, request);
    } catch (RuntimeException e) {
      wake.readerEnded(instance);
      throw e;
    }
    page.whenComplete((p, failure) -> wake.readerEnded(instance)); // the caller's future itself: cancelling it ends the poll
    return page;
  }

  @Override
  public CompletableFuture<AttachmentInfo> putAttachment(String instance, SessionKey session, String fileName,
      String mimeType, byte[] bytes) {
    TetherException limited = rateLimited(instance);
    return limited != null ? CompletableFuture.failedFuture(limited) : attachments.put(instance, session, fileName, mimeType, bytes);
  }

  @Override
  public CompletableFuture<List<AttachmentInfo>> attachments(String instance, SessionKey session) {
    return attachments.list(instance, session);
  }

  @Override
  public CompletableFuture<byte[]> attachment(String instance, SessionKey session, String name) {
    return attachments.read(instance, session, name);
  }

  @Override
  public CompletableFuture<Void> deleteAttachment(String instance, SessionKey session, String name) {
    return attachments.delete(instance, session, name);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
