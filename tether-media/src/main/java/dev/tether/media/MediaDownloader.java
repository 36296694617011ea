package dev.tether.media;

import java.io.IOException;
import java.io.InputStream;

/**
 * Downloads the bytes of a {@link MediaReference} from one channel (WhatsApp, Telegram, Slack),
 * using the reference's {@link MediaReference#downloadInfo()}. A service provider interface: each
 * channel integration implements it and hands it to {@link MediaFetcher.Builder#downloader}.
 *
 * <p>Implementations must be safe for concurrent use; the fetcher calls {@link #open} from its
 * executor and never twice at once for the same reference. It closes the stream it gets.
 */
public interface MediaDownloader {
  /** The channel this downloader serves, as in {@link MediaReference#channel()}. */
  String channel();

  /**
   * Opens the media's bytes for reading.
   *
   * @throws IOException when the channel cannot deliver them (network, expired URL, auth)
   */
  InputStream open(MediaReference ref) throws IOException;
}
