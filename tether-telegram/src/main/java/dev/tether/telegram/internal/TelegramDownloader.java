package dev.tether.telegram.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.media.MediaDownloader;
import dev.tether.media.MediaReference;
import dev.tether.telegram.TelegramChat;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.Optional;

/**
 * Downloads a Telegram media reference when an agent asks for it: {@code getFile} with the
 * reference's {@code file_id}, then the file, never more than the Bot API's 20 MB. A size known to
 * be over that (declared by the message or by {@code getFile}) fails with
 * {@link ErrorCode#DOWNLOAD_TOO_LARGE} before anything is downloaded. Thread-safe.
 */
final class TelegramDownloader implements MediaDownloader {
  static final String FILE_ID = "file_id";
  private static final int ATTEMPTS = 3;

  private final BotApi api;
  private final Retrier retrier;

  TelegramDownloader(BotApi api, Retrier retrier) {
    this.api = Objects.requireNonNull(api, "api");
    this.retrier = Objects.requireNonNull(retrier, "retrier");
  }

  @Override
  public String channel() {
    return TelegramChat.CHANNEL;
  }

  @Override
  public InputStream open(MediaReference ref) throws IOException {
    String fileId = ref.downloadInfo().get(FILE_ID);
    if (fileId == null || fileId.isEmpty()) {
      throw new IOException("media ref:" + ref.id() + " has no Telegram file id");
    }
    requireWithinLimit(ref, ref.size());
    BotTypes.File file = attempt(() -> api.getFile(fileId));
    if (file.fileSize() != null) {
      requireWithinLimit(ref, file.fileSize());
    }
    Optional<byte[]> bytes = attempt(() -> api.download(file.filePath(), BotApi.GET_FILE_LIMIT));
    if (bytes.isEmpty()) {
      requireWithinLimit(ref, BotApi.GET_FILE_LIMIT + 1);
    }
    return new ByteArrayInputStream(bytes.get());
  }

  /**
   * {@code call}, tried up to {@value #ATTEMPTS} times while it fails transiently (network, 5xx,
   * 429): an agent is waiting, so a fetch fails soon rather than retrying for as long as the
   * bridge's own loops would.
   */
  private <T> T attempt(Retrier.Call<T> call) throws IOException {
    IOException last = null;
    for (int i = 0; i < ATTEMPTS; i++) {
      if (i > 0) {
        retrier.sleep(500L << (i - 1));
      }
      try {
        return call.run();
      } catch (InterruptedIOException e) {
        throw e;
      } catch (BotApiException e) {
        if (!e.isTransient()) {
          throw e;
        }
        last = e;
      } catch (IOException e) {
        last = e;
      }
    }
    throw last;
  }

  private static void requireWithinLimit(MediaReference ref, long size) {
    if (size > BotApi.GET_FILE_LIMIT) {
      throw TetherException.of(ErrorCode.DOWNLOAD_TOO_LARGE, "media ref:" + ref.id() + " is " + size
          + " bytes; bots can download files of at most 20 MB (" + BotApi.GET_FILE_LIMIT
          + " bytes), so ask the sender to share it another way");
    }
  }
}
