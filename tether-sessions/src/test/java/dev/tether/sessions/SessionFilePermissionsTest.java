package dev.tether.sessions;

import static dev.tether.api.testing.FileModes.assertOwnerOnly;
import static dev.tether.api.testing.FileModes.openDirectory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import java.io.ByteArrayInputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Session files and blobs hold the conversation and its images: in a data directory that is 0755
 * (umask 022 as usual), the directories the stores create are 0700 and every file is 0600, also
 * after a reopen, and a session file an earlier version wrote readable by others is restricted.
 */
class SessionFilePermissionsTest {
  private static final SessionKey KEY = new SessionKey("telegram", "12345");

  @TempDir Path root;
  Path data;

  @BeforeEach
  void openDataDirectory() throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX file modes");
    data = openDirectory(root.resolve("data"));
  }

  @Test
  void sessionFilesBlobsAndTheirDirectories_areOwnerOnly() throws Exception {
    FileBlobStore blobs = FileBlobStore.open(data.resolve("blobs"));
    try (SessionStore sessions = SessionStore.builder(data.resolve("sessions"), blobs).build()) {
      sessions.open(KEY).ingest(Fixtures.userMessage(KEY, "Alice", "look", Fixtures.png(2_000, 1)));
      blobs.put(new ByteArrayInputStream(Fixtures.png(3_000, 2)), MediaType.PNG);
    }
    assertOwnerOnly(data, "blobs", "sessions");
    assertEquals(2, blobs.keys().size());

    try (SessionStore sessions = SessionStore.builder(data.resolve("sessions"), blobs).build()) {
      sessions.open(KEY).ingest(Fixtures.userMessage(KEY, "Alice", "again", Fixtures.png(2_000, 3)));
    }
    assertOwnerOnly(data, "blobs", "sessions");
  }

  @Test
  void storesInADirectoryThatExists_keepItsMode_andTheirFilesPrivate() throws Exception {
    FileBlobStore blobs = FileBlobStore.open(data);
    try (SessionStore sessions = SessionStore.builder(data, blobs).build()) {
      sessions.open(KEY).ingest(Fixtures.userMessage(KEY, "Alice", "look", Fixtures.png(2_000, 1)));
    }
    assertOwnerOnly(data);
    assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(data)));
  }

  @Test
  void aSessionFileReadableByOthers_isRestrictedWhenOpened() throws Exception {
    FileBlobStore blobs = FileBlobStore.open(data.resolve("blobs"));
    Path file;
    try (SessionStore sessions = SessionStore.builder(data.resolve("sessions"), blobs).build()) {
      sessions.open(KEY).ingest(Fixtures.userMessage(KEY, null, "before"));
      file = sessions.file(KEY);
    }
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    try (SessionStore sessions = SessionStore.builder(data.resolve("sessions"), blobs).build()) {
      sessions.open(KEY);
    }
    assertOwnerOnly(data, "sessions");
  }
}
