package dev.tether.media;

import static dev.tether.api.testing.FileModes.assertOwnerOnly;
import static dev.tether.api.testing.FileModes.openDirectory;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.api.testing.TestImages;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Attachments (images and files a user sent) and their manifest are owner-only in a 0755 data directory. */
class AttachmentFilePermissionsTest {
  @TempDir Path root;

  @Test
  void attachmentsTheirManifestAndDirectory_areOwnerOnly() throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX file modes");
    Path data = openDirectory(root.resolve("data"));
    AttachmentCatalog catalog = AttachmentCatalog.open(data.resolve("attachments/chat-1"));
    catalog.save(new AttachmentUpload("screenshot.png", Base64.getEncoder().encodeToString(TestImages.png(2_000)),
        "image/png"));
    catalog.save(new AttachmentUpload("notes.txt",
        Base64.getEncoder().encodeToString("secret".getBytes(StandardCharsets.UTF_8)), "text/plain"));
    assertOwnerOnly(data, "attachments", "attachments/chat-1", "attachments/chat-1/screenshot.png");
  }
}
