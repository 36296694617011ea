package dev.tether.whatsapp.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.images.ByteSizes;
import dev.tether.media.MediaDownloader;
import dev.tether.media.MediaReference;
import dev.tether.whatsapp.WhatsAppChat;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.Optional;

/**
 * Downloads WhatsApp media for a fetch. The media URL is resolved at fetch time
 * ({@code GET /<media-id>}), since WhatsApp's URLs expire within minutes; a download refused as
 * expired (401, 403, 404) is resolved once more and tried again. The size WhatsApp reports is
 * checked before the download, and the download is cut at the limit whatever it said. Thread-safe.
 */
final class WhatsAppDownloader implements MediaDownloader {
  static final String MEDIA_ID = "media_id";

  private final GraphApi api;
  private final long maxBytes;

  WhatsAppDownloader(GraphApi api, long maxBytes) {
    this.api = Objects.requireNonNull(api, "api");
    this.maxBytes = maxBytes;
  }

  @Override
  public String channel() {
    return WhatsAppChat.CHANNEL;
  }

  @Override
  public InputStream open(MediaReference ref) throws IOException {
    String mediaId = ref.downloadInfo().get(MEDIA_ID);
    if (mediaId == null || mediaId.isEmpty()) {
      throw new IOException("media ref:" + ref.id() + " has no WhatsApp media id");
    }
    return new ByteArrayInputStream(download(api, mediaId, maxBytes, ref.id()));
  }

  /** Resolves and downloads {@code mediaId}, re-resolving once when the URL has expired. */
  static byte[] download(GraphApi api, String mediaId, long maxBytes, String what) throws IOException {
    for (int attempt = 0; ; attempt++) {
      GraphApi.MediaUrl resolved = api.resolve(mediaId);
      requireWithinLimit(what, resolved.size(), maxBytes);
      Optional<byte[]> bytes;
      try {
        bytes = api.download(resolved.url(), maxBytes);
      } catch (GraphApiException e) {
        boolean expired = e.errorCode() == 401 || e.errorCode() == 403 || e.errorCode() == 404;
        if (expired && attempt == 0) {
          continue;
        }
        throw e;
      }
      if (bytes.isEmpty()) {
        requireWithinLimit(what, maxBytes + 1, maxBytes);
      }
      return bytes.get();
    }
  }

  private static void requireWithinLimit(String what, long size, long maxBytes) {
    if (size > maxBytes) {
      throw TetherException.of(ErrorCode.DOWNLOAD_TOO_LARGE, "media " + what + " is " + ByteSizes.decimal(size)
          + "; this bridge downloads media of at most " + ByteSizes.decimal(maxBytes));
    }
  }
}
