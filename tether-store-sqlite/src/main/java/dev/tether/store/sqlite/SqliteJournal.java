package dev.tether.store.sqlite;

import dev.tether.api.FrameTypes;
import dev.tether.store.Retention;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Limits;
import dev.tether.api.files.PrivateFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import dev.tether.api.SessionKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SQLite file behind {@link DurableTetherStore}: one table of frames keyed by (instance, seq)
 * holding each frame's compact JSON (payload included, see the store's Javadoc for why blobs are
 * not split into files), and one row per instance with its seq high-water mark.
 *
 * <p>The file is marked with {@code PRAGMA application_id} and {@code user_version}; opening a file
 * without them (another application's database) or with an unknown version fails, as does a file
 * SQLite cannot read, instead of resetting anything. Not thread-safe: the store's writer thread
 * owns it after {@link #open}.
 */
final class SqliteJournal implements AutoCloseable {
  /** "TTHR" */
  static final int APPLICATION_ID = 0x54544852;
  static final int SCHEMA_VERSION = 2;

  /**
   * One instance's restored state.
   *
   * @param evictedSeq every seq at or below it was evicted (0: none)
   * @param sessionEvicted per session, the highest seq of that session that was evicted
   */
  record Restored(String instance, long highSeq, List<Frame> frames, long evictedSeq,
      Map<SessionKey, Long> sessionEvicted) {}

  private final Path file;
  private final Connection db;
  private final PreparedStatement insert;
  private final PreparedStatement evict;
  private final PreparedStatement deleteAll;
  private final PreparedStatement highWater;
  private final PreparedStatement evictedMark;
  private final PreparedStatement sessionMark;
  private final PreparedStatement clearMarks;
  private final PreparedStatement clearSessionMarks;
  /** Test hook: runs before every commit and may throw to simulate a failing disk. */
  volatile CommitHook beforeCommit;

  /** See {@link #beforeCommit}. */
  interface CommitHook {
    void run() throws SQLException;
  }

  private SqliteJournal(Path file, Connection db) throws SQLException {
    this.file = file;
    this.db = db;
    this.insert = db.prepareStatement("INSERT INTO frames(instance, seq, frame) VALUES (?, ?, ?)");
    this.evict = db.prepareStatement("DELETE FROM frames WHERE instance = ? AND seq <= ?");
    this.deleteAll = db.prepareStatement("DELETE FROM frames WHERE instance = ?");
    this.highWater = db.prepareStatement(
        "INSERT INTO instances(instance, high_seq) VALUES (?, ?) "
            + "ON CONFLICT(instance) DO UPDATE SET high_seq = max(high_seq, excluded.high_seq)");
    this.evictedMark = db.prepareStatement(
        "INSERT INTO instances(instance, high_seq, evicted_seq) VALUES (?, 0, ?) "
            + "ON CONFLICT(instance) DO UPDATE SET evicted_seq = max(evicted_seq, excluded.evicted_seq)");
    this.sessionMark = db.prepareStatement(
        "INSERT INTO evictions(instance, channel, id, seq) VALUES (?, ?, ?, ?) "
            + "ON CONFLICT(instance, channel, id) DO UPDATE SET seq = max(seq, excluded.seq)");
    this.clearMarks = db.prepareStatement("UPDATE instances SET evicted_seq = 0 WHERE instance = ?");
    this.clearSessionMarks = db.prepareStatement("DELETE FROM evictions WHERE instance = ?");
  }

  /**
   * Opens or creates the journal.
   *
   * @throws IOException when the file is not a tether journal, has an unknown version, is corrupt
   *     or cannot be opened
   */
  static SqliteJournal open(Path file, DurableTetherStore.Sync sync) throws IOException {
    Connection db = null;
    try {
      // SQLite would create the file with 0644 less the umask; an empty file is a new database.
      PrivateFiles.createFileIfAbsent(file);
      db = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
      try (Statement st = db.createStatement()) {
        // Look before touching anything: a foreign database must not be switched to WAL.
        int appId = pragmaInt(st, "application_id");
        int tables;
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master")) {
          tables = rs.next() ? rs.getInt(1) : 0;
        }
        boolean fresh = appId == 0 && tables == 0;
        if (!fresh && appId != APPLICATION_ID) {
          throw new IOException(file + " is not a tether journal (application_id " + appId
              + ", expected " + APPLICATION_ID + "); refusing to open or overwrite it");
        }
        int version = fresh ? SCHEMA_VERSION : pragmaInt(st, "user_version");
        if (version != SCHEMA_VERSION && version != 1) {
          throw new IOException(file + " has journal version " + version + ", this build reads "
              + "versions 1 and " + SCHEMA_VERSION);
        }
        try (ResultSet rs = st.executeQuery("PRAGMA journal_mode=WAL")) {
          String mode = rs.next() ? rs.getString(1) : "";
          if (!"wal".equalsIgnoreCase(mode)) {
            throw new IOException(file + ": cannot switch to WAL mode (got '" + mode + "')");
          }
        }
        st.execute("PRAGMA synchronous=" + sync.name());
        if (fresh) {
          db.setAutoCommit(false);
          st.execute("CREATE TABLE frames (instance TEXT NOT NULL, seq INTEGER NOT NULL, "
              + "frame BLOB NOT NULL, PRIMARY KEY (instance, seq))");
          st.execute("CREATE TABLE instances (instance TEXT PRIMARY KEY, high_seq INTEGER NOT NULL, "
              + "evicted_seq INTEGER NOT NULL DEFAULT 0)");
          createEvictions(st);
          st.execute("PRAGMA application_id=" + APPLICATION_ID);
          st.execute("PRAGMA user_version=" + SCHEMA_VERSION);
          db.commit();
        } else if (version == 1) {
          // Version 2 adds the eviction high-water marks (gap and oldest_seq after a restart).
          db.setAutoCommit(false);
          st.execute("ALTER TABLE instances ADD COLUMN evicted_seq INTEGER NOT NULL DEFAULT 0");
          createEvictions(st);
          st.execute("PRAGMA user_version=" + SCHEMA_VERSION);
          db.commit();
        }
      }
      db.setAutoCommit(false);
      restrictFiles(file);
      return new SqliteJournal(file, db);
    } catch (SQLException e) {
      closeQuietly(db);
      throw new IOException(file + " cannot be opened as a tether journal: " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      closeQuietly(db);
      throw e;
    }
  }

  /**
   * Makes the journal and its side files owner-only. SQLite gives the -wal, -shm and -journal files
   * it creates the mode of the database file (and chmods them to it past the umask), and keeps the
   * mode of files that exist, so once the database file is 0600 they all are, also after
   * checkpoints and reopens. Files an earlier version left readable by others are restricted here,
   * after the file proved to be a tether journal.
   */
  private static void restrictFiles(Path file) throws IOException {
    for (String suffix : SIDE_FILES) {
      PrivateFiles.restrict(file.resolveSibling(file.getFileName() + suffix));
    }
  }

  /**
   * Reads rows back as the codec wrote them, at any size a host's limits let in: a row is copied
   * once and checked as a frame from the wire would be (restore only; the ring serves the reads).
   */
  private static final FrameCodec STORED_ROWS =
      FrameCodec.withLimits(Limits.builder().maxFrameBytes(Integer.MAX_VALUE - 8).build());
  private static final List<String> SIDE_FILES = List.of("", "-wal", "-shm", "-journal");

  private static void createEvictions(Statement st) throws SQLException {
    st.execute("CREATE TABLE evictions (instance TEXT NOT NULL, channel TEXT NOT NULL, "
        + "id TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (instance, channel, id))");
  }

  private static int pragmaInt(Statement st, String pragma) throws SQLException {
    try (ResultSet rs = st.executeQuery("PRAGMA " + pragma)) {
      return rs.next() ? rs.getInt(1) : 0;
    }
  }

  private static void closeQuietly(Connection db) {
    if (db != null) {
      try {
        db.close();
      } catch (SQLException ignored) {
        // Already failing; the first error is the one to report.
      }
    }
  }

  /**
   * Reads every instance's newest frames that fit {@code retention}, oldest first, and deletes the
   * older rows that no longer fit. Frames are not written again.
   *
   * @throws IOException when a row is corrupt or the file cannot be read
   */
  List<Restored> restore(Retention retention) throws IOException {
    try {
      Map<String, Long> highs = new LinkedHashMap<>();
      try (Statement st = db.createStatement();
          ResultSet rs = st.executeQuery(
              "SELECT instance, max(high_seq) FROM (SELECT instance, high_seq FROM instances "
                  + "UNION ALL SELECT instance, max(seq) FROM frames GROUP BY instance) GROUP BY instance")) {
        while (rs.next()) {
          highs.put(rs.getString(1), rs.getLong(2));
        }
      }
      Map<String, Long> evicted = new HashMap<>();
      try (Statement st = db.createStatement();
          ResultSet rs = st.executeQuery("SELECT instance, evicted_seq FROM instances WHERE evicted_seq > 0")) {
        while (rs.next()) {
          evicted.put(rs.getString(1), rs.getLong(2));
        }
      }
      Map<String, Map<SessionKey, Long>> sessionMarks = new HashMap<>();
      try (Statement st = db.createStatement();
          ResultSet rs = st.executeQuery("SELECT instance, channel, id, seq FROM evictions")) {
        while (rs.next()) {
          sessionMarks.computeIfAbsent(rs.getString(1), k -> new HashMap<>())
              .put(new SessionKey(rs.getString(2), rs.getString(3)), rs.getLong(4));
        }
      }
      List<Restored> out = new ArrayList<>();
      try (PreparedStatement q = db.prepareStatement(
          "SELECT seq, frame FROM frames WHERE instance = ? ORDER BY seq DESC")) {
        for (Map.Entry<String, Long> e : highs.entrySet()) {
          String name = e.getKey();
          Map<SessionKey, Long> marks = sessionMarks.getOrDefault(name, new HashMap<>());
          long[] mark = {evicted.getOrDefault(name, 0L)};
          List<Frame> kept = newestThatFit(q, name, retention, mark, marks);
          out.add(new Restored(name, e.getValue(), kept, mark[0], marks));
        }
      }
      db.commit();
      return out;
    } catch (SQLException e) {
      throw new IOException(file + " cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * The newest rows that fit; rows that no longer fit (a smaller retention than when they were
   * written) are deleted, and their seqs raise {@code mark[0]} and {@code sessionMarks}, which are
   * written back so the next restart knows them too.
   */
  private List<Frame> newestThatFit(PreparedStatement q, String instance, Retention retention,
      long[] mark, Map<SessionKey, Long> sessionMarks) throws SQLException, IOException {
    List<Frame> kept = new ArrayList<>();
    long bytes = 0;
    long cut = 0;
    q.setString(1, instance);
    try (ResultSet rs = q.executeQuery()) {
      while (rs.next()) {
        long seq = rs.getLong(1);
        byte[] json = rs.getBytes(2);
        Frame f = decode(instance, seq, json);
        if (!retention.deltasInRing() && FrameTypes.isDelta(f.type())) {
          continue;
        }
        long size = f.payload().size();
        if (cut == 0 && !kept.isEmpty()
            && (kept.size() >= retention.maxFrames() || bytes + size > retention.maxBytes())) {
          cut = seq;
        }
        if (cut > 0) {
          SessionKey key = f.session().orElse(null);
          if (key != null) {
            sessionMarks.merge(key, seq, Math::max);
          }
          continue;
        }
        kept.add(f);
        bytes += size;
      }
    }
    if (cut > 0) {
      evict.setString(1, instance);
      evict.setLong(2, cut);
      evict.executeUpdate();
      mark[0] = Math.max(mark[0], cut);
      evictedMarks(instance, mark[0], sessionMarks);
    }
    Collections.reverse(kept);
    return kept;
  }

  private Frame decode(String instance, long seq, byte[] json) throws IOException {
    return decodeRow(file, instance, seq, json);
  }

  /**
   * Reads one stored row back into a frame. Any damage, however the bytes look, is an
   * {@link IOException} naming the file, instance and seq.
   */
  static Frame decodeRow(Path file, String instance, long seq, byte[] json) throws IOException {
    if (json == null) {
      throw new IOException(file + ": frame " + instance + "/" + seq + " is empty; the journal is corrupt");
    }
    Frame f;
    try {
      f = STORED_ROWS.read(json);
    } catch (RuntimeException e) {
      throw new IOException(file + ": frame " + instance + "/" + seq + " is corrupt: " + e.getMessage(), e);
    }
    if (f.seq() != seq) {
      throw new IOException(file + ": frame " + instance + "/" + seq + " carries seq " + f.seq()
          + "; the journal is corrupt");
    }
    return f;
  }

  /** Adds an insert of {@code stored} (which carries its seq) to the open transaction. */
  void insert(String instance, Frame stored) throws SQLException {
    insert.setString(1, instance);
    insert.setLong(2, stored.seq());
    insert.setBytes(3, FrameCodec.standard().write(stored));
    insert.executeUpdate();
  }

  /** Adds the deletion of every frame of {@code instance} up to {@code seq}. */
  void evictThrough(String instance, long seq) throws SQLException {
    evict.setString(1, instance);
    evict.setLong(2, seq);
    evict.executeUpdate();
  }

  /** Adds the deletion of every frame of {@code instance}; its high-water mark stays. */
  void deleteInstance(String instance) throws SQLException {
    deleteAll.setString(1, instance);
    deleteAll.executeUpdate();
  }

  /** Raises the instance's eviction high-water marks (instance-wide and per session). */
  void evictedMarks(String instance, long seq, Map<SessionKey, Long> sessions) throws SQLException {
    evictedMark.setString(1, instance);
    evictedMark.setLong(2, seq);
    evictedMark.executeUpdate();
    for (Map.Entry<SessionKey, Long> e : sessions.entrySet()) {
      sessionMark.setString(1, instance);
      sessionMark.setString(2, e.getKey().channel());
      sessionMark.setString(3, e.getKey().id());
      sessionMark.setLong(4, e.getValue());
      sessionMark.executeUpdate();
    }
  }

  /** Forgets the instance's eviction marks (its history was removed). */
  void clearEvictedMarks(String instance) throws SQLException {
    clearMarks.setString(1, instance);
    clearMarks.executeUpdate();
    clearSessionMarks.setString(1, instance);
    clearSessionMarks.executeUpdate();
  }

  void highWater(String instance, long seq) throws SQLException {
    highWater.setString(1, instance);
    highWater.setLong(2, seq);
    highWater.executeUpdate();
  }

  void commit() throws SQLException {
    CommitHook hook = beforeCommit;
    if (hook != null) {
      hook.run();
    }
    db.commit();
  }

  void rollback() {
    try {
      db.rollback();
    } catch (SQLException ignored) {
      // The store is failing already.
    }
  }

  @Override
  public void close() throws IOException {
    try {
      insert.close();
      evict.close();
      deleteAll.close();
      highWater.close();
      evictedMark.close();
      sessionMark.close();
      clearMarks.close();
      clearSessionMarks.close();
      db.close();
    } catch (SQLException e) {
      throw new IOException(file + " did not close cleanly: " + e.getMessage(), e);
    }
  }
}
