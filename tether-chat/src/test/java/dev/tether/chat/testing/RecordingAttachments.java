package dev.tether.chat.testing;

import dev.tether.api.SessionKey;
import dev.tether.client.AttachmentClient;
import dev.tether.client.AttachmentInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** An attachment store in memory that records what the bridge stored, per session. */
public final class RecordingAttachments implements AttachmentClient {
  private final Map<SessionKey, List<AttachmentInfo>> stored = new ConcurrentHashMap<>();
  private final Map<String, byte[]> bytes = new ConcurrentHashMap<>();

  @Override
  public CompletableFuture<AttachmentInfo> putAttachment(String instance, SessionKey session, String fileName, String mimeType,
      byte[] data) {
    AttachmentInfo info = new AttachmentInfo(fileName, mimeType == null ? "application/octet-stream" : mimeType, data.length, Instant.now());
    stored.computeIfAbsent(session, s -> new CopyOnWriteArrayList<>()).add(info);
    bytes.put(session + "/" + fileName, data.clone());
    return CompletableFuture.completedFuture(info);
  }

  @Override
  public CompletableFuture<List<AttachmentInfo>> attachments(String instance, SessionKey session) {
    return CompletableFuture.completedFuture(List.copyOf(stored.getOrDefault(session, List.of())));
  }

  @Override
  public CompletableFuture<byte[]> attachment(String instance, SessionKey session, String name) {
    return CompletableFuture.completedFuture(bytes.get(session + "/" + name));
  }
}
