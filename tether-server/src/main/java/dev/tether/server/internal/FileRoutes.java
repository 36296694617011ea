package dev.tether.server.internal;

import static dev.tether.server.internal.Answers.reply;
import static dev.tether.server.internal.Answers.unwrap;
import static dev.tether.server.internal.Answers.write;

import dev.tether.api.ErrorCode;
import dev.tether.api.FrameCodec;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.server.internal.Answers.IoFunction;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The routes that move files: {@code POST .../blob}, {@code GET .../blob/{key}} and the attachment
 * routes ({@link AttachmentRoutes}). Uploads are read within the ingress budget and written under
 * the instance's disk budget; downloads are written within the egress budget. Thread-safe.
 */
final class FileRoutes {
  private final Blobs blobs;
  private final Attachments attachments;
  private final DiskBudget disk;
  private final ByteBudget ingressBudget;
  private final ByteBudget egressBudget;
  private final long maxImageBytes;
  private final Duration requestIdleTimeout;
  private final Answers answers;
  private final Supplier<Executor> executor;

  FileRoutes(Blobs blobs, Attachments attachments, DiskBudget disk, ByteBudget ingressBudget, ByteBudget egressBudget,
      long maxImageBytes, Duration requestIdleTimeout, Answers answers, Supplier<Executor> executor) {
    this.blobs = blobs;
    this.attachments = attachments;
    this.disk = disk;
    this.ingressBudget = ingressBudget;
    this.egressBudget = egressBudget;
    this.maxImageBytes = maxImageBytes;
    this.requestIdleTimeout = requestIdleTimeout;
    this.answers = answers;
    this.executor = executor;
  }

  void uploadBlob(RouteTable.Call c) {
    InstanceRegistry.Entry entry = c.entry();
    Request request = c.request();
    Response response = c.response();
    Callback callback = c.callback();
    MediaType type = BlobRoutes.uploadType(request.getHeaders().get(HttpHeader.CONTENT_TYPE));
    int max = Math.toIntExact(maxImageBytes);
    readUpload(request, response, callback, max,
        () -> ErrorBody.of(TetherException.of(ErrorCode.IMAGE_TOO_LARGE,
            "the image is larger than " + max + " bytes, the limit for one image")),
        body -> disk.write(entry, body.length(), 0, () -> BlobRoutes.upload(blobs, entry, type, body.buffer(), body.length())));
  }

  /**
   * Reads an upload's body of at most {@code max} bytes within the ingress budget, then answers
   * with what {@code store} makes of it: 503 (Retry-After) past the budget and 413
   * ({@code tooLarge}) past {@code max}, in both cases after discarding what the client still sends.
   */
  private void readUpload(Request request, Response response, Callback callback, int max,
      Supplier<byte[]> tooLarge, IoFunction<FrameCodec.BoundedBody, Reply> store) {
    long cost = BodyReader.reservation(request.getLength(), max);
    if (!ingressBudget.tryReserve(cost)) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      write(response, 503, ErrorBody.of(ErrorCode.UNAVAILABLE, "the server is reading too many large requests at once; retry shortly"),
          Callback.from(() -> BodyDrainer.drain(request, callback, 2L * max), callback::failed));
      return;
    }
    BodyReader.read(request, max).whenComplete((body, failure) -> {
      try {
        if (failure != null) {
          Throwable cause = unwrap(failure);
          if (cause instanceof TetherException e && e.code() == ErrorCode.FRAME_TOO_LARGE) {
            write(response, 413, tooLarge.get(), Callback.from(() -> BodyDrainer.drain(request, callback, 2L * max), callback::failed));
          } else {
            answers.fail(response, callback, cause);
          }
          return;
        }
        reply(response, callback, store.apply(body));
      } catch (Throwable e) {
        answers.fail(response, callback, e);
      } finally {
        ingressBudget.release(cost);
      }
    });
  }

  private static SessionKey session(RouteTable.Call c) {
    Fields q = Request.extractQueryParameters(c.request());
    return AttachmentRoutes.session(q.getValue("channel"), q.getValue("session_id"));
  }

  /** {@code .../attachments[/{name}]}: see {@link AttachmentRoutes}. */
  void listAttachments(RouteTable.Call c) {
    SessionKey session = session(c);
    answers.replyIo(c.response(), c.callback(), () -> AttachmentRoutes.list(attachments, c.entry(), session));
  }

  void deleteAttachment(RouteTable.Call c) {
    SessionKey session = session(c);
    answers.replyIo(c.response(), c.callback(), () -> AttachmentRoutes.delete(attachments, c.entry(), session, c.param("name")));
  }

  void downloadAttachment(RouteTable.Call c) {
    SessionKey session = session(c);
    Response response = c.response();
    Attachments.Opened d;
    try {
      d = AttachmentRoutes.download(attachments, c.entry(), session, c.param("name"));
    } catch (IOException e) {
      answers.fail(response, c.callback(), e);
      return;
    }
    response.getHeaders().put(AttachmentRoutes.MIME_HEADER, d.attachment().mimeType());
    response.getHeaders().put("Content-Disposition", "attachment");
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    // Streamed from the open file or the shared storage in windows under the egress budget, never read whole.
    FileAnswer.write(d.channel(), d.size(), "application/octet-stream", egressBudget, c.request(), response,
        executor.get(), requestIdleTimeout, c.callback());
  }

  /** {@code GET .../blob/{key}}: the verified bytes, reserved from the egress budget until written (see {@link BlobRoutes#download}). */
  void downloadBlob(RouteTable.Call c) {
    Response response = c.response();
    Callback callback = c.callback();
    BlobRoutes.Download d;
    try {
      d = BlobRoutes.download(blobs, c.entry(), c.param("key"), egressBudget);
    } catch (IOException e) {
      answers.fail(response, callback, e);
      return;
    }
    if (d.reply().status() == 503) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    }
    reply(response, d.reserved() == 0 ? callback : EgressWrite.holding(egressBudget, d.reserved(), callback), d.reply());
  }

  /** Reads an attachment's body within the ingress budget and {@link Attachments#maxBytes()}, then stores it. */
  void uploadAttachment(RouteTable.Call c) {
    SessionKey session = session(c);
    String name = AttachmentRoutes.uploadName(Request.extractQueryParameters(c.request()).getValue("name"));
    InstanceRegistry.Entry entry = c.entry();
    Request request = c.request();
    Response response = c.response();
    Callback callback = c.callback();
    String mimeType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    int max = Math.toIntExact(attachments.maxBytes());
    readUpload(request, response, callback, max,
        () -> ErrorBody.of(ErrorCode.UPLOAD_TOO_LARGE, "the attachment is larger than " + max + " bytes, the limit for one attachment"),
        body -> disk.write(entry, body.length(), AttachmentRoutes.manifestEntryBytes(name, mimeType),
            () -> AttachmentRoutes.upload(attachments, entry, session, name, mimeType, body.buffer(), body.length())));
  }
}
