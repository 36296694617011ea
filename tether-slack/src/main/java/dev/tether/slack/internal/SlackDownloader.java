package dev.tether.slack.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.media.MediaDownloader;
import dev.tether.media.MediaReference;
import dev.tether.images.ByteSizes;
import dev.tether.slack.SlackChat;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Downloads a Slack file for a fetch: {@code url_private} from the reference, with the bot token,
 * one attempt (the agent is waiting; it may ask again). A file the event said is over the limit is
 * refused before any request, and a download is cut at the limit whatever the event said.
 * Thread-safe.
 */
final class SlackDownloader implements MediaDownloader {
  static final String URL = "url_private";

  private final SlackApi api;
  private final long maxBytes;

  SlackDownloader(SlackApi api, long maxBytes) {
    this.api = Objects.requireNonNull(api, "api");
    this.maxBytes = maxBytes;
  }

  @Override
  public String channel() {
    return SlackChat.CHANNEL;
  }

  @Override
  public InputStream open(MediaReference ref) throws IOException {
    String url = ref.downloadInfo().get(URL);
    if (url == null || url.isEmpty()) {
      throw new IOException("media ref:" + ref.id() + " has no Slack file URL");
    }
    requireWithinLimit(ref, ref.size());
    Optional<byte[]> bytes = api.download(URI.create(url), maxBytes);
    if (bytes.isEmpty()) {
      requireWithinLimit(ref, maxBytes + 1);
    }
    return new ByteArrayInputStream(bytes.get());
  }

  private void requireWithinLimit(MediaReference ref, long size) {
    if (size > maxBytes) {
      throw TetherException.of(ErrorCode.DOWNLOAD_TOO_LARGE, "media ref:" + ref.id() + " is " + ByteSizes.decimal(size)
          + "; this bridge downloads files of at most " + ByteSizes.decimal(maxBytes));
    }
  }
}
