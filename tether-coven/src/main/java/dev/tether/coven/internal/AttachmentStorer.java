package dev.tether.coven.internal;

import dev.tether.client.AttachmentInfo;
import dev.tether.coven.internal.proto.FileAttachment;
import dev.tether.coven.internal.proto.SendMessage;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Stores a request's attachments that are not images as session attachments of its thread's
 * session, one after another in message order, through the bridge's
 * {@link dev.tether.client.AttachmentClient}, with the MIME type the gateway sent (empty: none).
 * Images stay inline images of the frame. Stateless and thread-safe.
 */
final class AttachmentStorer {
  private AttachmentStorer() {}

  /**
   * The stored attachments by index in the message; empty at once when the bridge keeps none or
   * the message has none to store. Fails with the host's refusal (a
   * {@link dev.tether.api.TetherException}) or an {@link java.io.IOException}.
   */
  static CompletableFuture<Map<Integer, AttachmentInfo>> store(Bridge bridge, SendMessage message) {
    CompletableFuture<Map<Integer, AttachmentInfo>> chain = CompletableFuture.completedFuture(new TreeMap<>());
    if (bridge.attachments() == null) {
      return chain;
    }
    for (int i = 0; i < message.getAttachmentsCount(); i++) {
      FileAttachment a = message.getAttachments(i);
      if (UserMessageTranslator.isImage(a)) {
        continue;
      }
      int index = i;
      String name = a.getFilename().isBlank() ? "attachment" : a.getFilename();
      String type = a.getMimeType().isBlank() ? null : a.getMimeType();
      chain = chain.thenCompose(stored -> bridge.attachments()
          .putAttachment(bridge.instance(), UserMessageTranslator.session(message.getThreadId()), name, type, a.getData().toByteArray())
          .thenApply(info -> {
            stored.put(index, info);
            return stored;
          }));
    }
    return chain;
  }
}
