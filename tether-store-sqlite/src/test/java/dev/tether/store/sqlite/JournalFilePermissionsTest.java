package dev.tether.store.sqlite;

import static dev.tether.api.testing.FileModes.assertOwnerOnly;
import static dev.tether.api.testing.FileModes.openDirectory;
import static dev.tether.api.testing.TestFrames.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.api.SessionKey;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal and its -wal and -shm hold every frame: they are 0600 in a data directory that is
 * 0755, from the first append, after a checkpoint, after a reopen, and also when an earlier
 * version left them readable by others.
 */
class JournalFilePermissionsTest {
  private static final SessionKey A = SessionKey.host("a");

  @TempDir Path root;
  Path dir;
  Path file;

  @BeforeEach
  void openDataDirectory() throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX file modes");
    dir = openDirectory(root.resolve("data"));
    file = dir.resolve("journal.db");
  }

  @Test
  void journalWalAndShm_areOwnerOnly_afterAppendCheckpointAndReopen() throws Exception {
    try (DurableTetherStore store = DurableTetherStore.open(file)) {
      store.append("vm", message(A, "first"));
      assertOwnerOnly(dir, "journal.db", "journal.db-wal", "journal.db-shm");

      // A checkpoint that truncates the WAL (from a second connection, as a backup tool would);
      // SQLite reuses the files, keeping their mode.
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
        st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
      }
      store.append("vm", message(A, "after the checkpoint"));
      assertOwnerOnly(dir, "journal.db", "journal.db-wal", "journal.db-shm");
    }
    assertOwnerOnly(dir, "journal.db");

    try (DurableTetherStore store = DurableTetherStore.open(file)) {
      store.append("vm", message(A, "after the reopen"));
      assertOwnerOnly(dir, "journal.db", "journal.db-wal", "journal.db-shm");
    }
    assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)),
        "the caller's directory is left as it is");
  }

  /**
   * The premise of SqliteJournal's approach, checked against the SQLite this build ships: files
   * SQLite creates beside a database (the -wal, -shm and a rollback -journal) get the database
   * file's mode, past the umask, so an owner-only database keeps them owner-only with no help.
   */
  @Test
  void sqliteGivesTheFilesItCreatesTheModeOfTheDatabaseFile() throws Exception {
    Path db = Files.createFile(dir.resolve("plain.db"));
    Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rw-------"));
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (x)"); // a rollback journal comes and goes
      st.execute("PRAGMA journal_mode=WAL");
      st.execute("INSERT INTO t VALUES (1)");
      assertOwnerOnly(dir, "plain.db", "plain.db-wal", "plain.db-shm");
      st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
      st.execute("INSERT INTO t VALUES (2)");
      assertOwnerOnly(dir, "plain.db", "plain.db-wal", "plain.db-shm");
    }
  }

  @Test
  void aJournalAndSideFilesReadableByOthers_areRestrictedAtOpen() throws Exception {
    try (DurableTetherStore store = DurableTetherStore.open(file)) {
      store.append("vm", message(A, "from an earlier version"));
    }
    // As an earlier version (or a crash, for the side files) would have left them.
    for (String name : new String[] {"journal.db", "journal.db-wal", "journal.db-shm"}) {
      Path p = dir.resolve(name);
      if (!Files.exists(p)) {
        Files.createFile(p);
      }
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
    }

    try (DurableTetherStore store = DurableTetherStore.open(file)) {
      assertOwnerOnly(dir, "journal.db", "journal.db-wal", "journal.db-shm");
      store.append("vm", message(A, "now"));
      assertEquals(2, store.query("vm", dev.tether.store.FrameQuery.all()).frames().size());
    }
  }
}
