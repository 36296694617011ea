package dev.tether.mcp;

import dev.tether.media.AttachmentCatalog;
import dev.tether.media.AttachmentUpload;
import dev.tether.media.MediaDownloader;
import dev.tether.media.MediaFetcher;
import dev.tether.media.MediaKind;
import dev.tether.media.MediaReference;
import dev.tether.media.MediaRegistry;
import java.awt.Color;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

/**
 * The media and attachments the test server offers: a registry with a small photo and a voice
 * note served by an in-memory downloader for the channel {@value #CHANNEL}, and an attachment
 * catalog with a text file, a real PNG, a text file declared as PNG and a binary file.
 */
final class TestMedia {
  static final String CHANNEL = "test";
  static final String PHOTO_REF = "tst_photo1";
  static final String VOICE_REF = "tst_voice1";
  static final String PHOTO_BASE64 = TestImages.base64("png", 3, 2, Color.MAGENTA);
  static final String NOTES = "line one\nline two\n";

  private TestMedia() {}

  static MediaRegistry registry() {
    MediaRegistry registry = MediaRegistry.create();
    registry.register(MediaReference.builder(PHOTO_REF, CHANNEL, MediaKind.IMAGE, "image/png")
        .fileName("sunset.png").size(Base64.getDecoder().decode(PHOTO_BASE64).length).caption("Beautiful sunset")
        .build());
    registry.register(MediaReference.builder(VOICE_REF, CHANNEL, MediaKind.VOICE, "audio/ogg").size(4).build());
    return registry;
  }

  static MediaFetcher fetcher(MediaRegistry registry, Path mediaDir) {
    Map<String, byte[]> bytes = Map.of(
        PHOTO_REF, Base64.getDecoder().decode(PHOTO_BASE64),
        VOICE_REF, "OggS".getBytes(StandardCharsets.US_ASCII));
    MediaDownloader downloader = new MediaDownloader() {
      @Override
      public String channel() {
        return CHANNEL;
      }

      @Override
      public InputStream open(MediaReference ref) throws IOException {
        byte[] data = bytes.get(ref.id());
        if (data == null) {
          throw new IOException("no such media on the test channel: " + ref.id());
        }
        return new ByteArrayInputStream(data);
      }
    };
    return MediaFetcher.builder(registry, mediaDir).downloader(downloader).build();
  }

  static AttachmentCatalog attachments(Path dir) throws IOException {
    AttachmentCatalog catalog = AttachmentCatalog.builder(dir).maxReadChars(10).open();
    catalog.save(new AttachmentUpload("notes.txt", encode(NOTES.getBytes(StandardCharsets.UTF_8)), "text/plain"));
    catalog.save(new AttachmentUpload("chart.png", PHOTO_BASE64, "image/png"));
    catalog.save(new AttachmentUpload("fake.png", encode("not a picture".getBytes(StandardCharsets.UTF_8)), "image/png"));
    catalog.save(new AttachmentUpload("blob.bin", encode(new byte[] {0, 1, 2, 0, 3}), "application/octet-stream"));
    return catalog;
  }

  private static String encode(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
