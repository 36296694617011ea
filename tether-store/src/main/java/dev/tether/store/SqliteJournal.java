package dev.tether.store;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.internal.ApiInternals;
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
  static final int SCHEMA_VERSION = 1;

  /** One instance's restored state. */
  record Restored(String instance, long highSeq, List<Frame> frames) {}

  private final Path file;
  private final Connection db;
  private final PreparedStatement insert;
  private final PreparedStatement evict;
  private final PreparedStatement deleteAll;
  private final PreparedStatement highWater;

  private SqliteJournal(Path file, Connection db) throws SQLException {
    this.file = file;
    this.db = db;
    this.insert = db.prepareStatement("INSERT INTO frames(instance, seq, frame) VALUES (?, ?, ?)");
    this.evict = db.prepareStatement("DELETE FROM frames WHERE instance = ? AND seq <= ?");
    this.deleteAll = db.prepareStatement("DELETE FROM frames WHERE instance = ?");
    this.highWater = db.prepareStatement(
        "INSERT INTO instances(instance, high_seq) VALUES (?, ?) "
            + "ON CONFLICT(instance) DO UPDATE SET high_seq = max(high_seq, excluded.high_seq)");
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
        if (!fresh) {
          int version = pragmaInt(st, "user_version");
          if (version != SCHEMA_VERSION) {
            throw new IOException(file + " has journal version " + version + ", this build reads "
                + SCHEMA_VERSION);
          }
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
          st.execute("CREATE TABLE instances (instance TEXT PRIMARY KEY, high_seq INTEGER NOT NULL)");
          st.execute("PRAGMA application_id=" + APPLICATION_ID);
          st.execute("PRAGMA user_version=" + SCHEMA_VERSION);
          db.commit();
        }
      }
      db.setAutoCommit(false);
      return new SqliteJournal(file, db);
    } catch (SQLException e) {
      closeQuietly(db);
      throw new IOException(file + " cannot be opened as a tether journal: " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      closeQuietly(db);
      throw e;
    }
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
      List<Restored> out = new ArrayList<>();
      try (PreparedStatement q = db.prepareStatement(
          "SELECT seq, frame FROM frames WHERE instance = ? ORDER BY seq DESC")) {
        for (Map.Entry<String, Long> e : highs.entrySet()) {
          out.add(new Restored(e.getKey(), e.getValue(), newestThatFit(q, e.getKey(), retention)));
        }
      }
      db.commit();
      return out;
    } catch (SQLException e) {
      throw new IOException(file + " cannot be read: " + e.getMessage(), e);
    }
  }

  private List<Frame> newestThatFit(PreparedStatement q, String instance, Retention retention)
      throws SQLException, IOException {
    List<Frame> kept = new ArrayList<>();
    long bytes = 0;
    long cut = 0;
    q.setString(1, instance);
    try (ResultSet rs = q.executeQuery()) {
      while (rs.next()) {
        long seq = rs.getLong(1);
        byte[] json = rs.getBytes(2);
        Frame f = decode(instance, seq, json);
        if (!retention.deltasInRing() && dev.tether.api.FrameTypes.isDelta(f.type())) {
          continue;
        }
        long size = f.payload().size();
        if (!kept.isEmpty() && (kept.size() >= retention.maxFrames() || bytes + size > retention.maxBytes())) {
          cut = seq;
          break;
        }
        kept.add(f);
        bytes += size;
      }
    }
    if (cut > 0) {
      evict.setString(1, instance);
      evict.setLong(2, cut);
      evict.executeUpdate();
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
      f = ApiInternals.readShared(json, 0, json.length);
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

  void highWater(String instance, long seq) throws SQLException {
    highWater.setString(1, instance);
    highWater.setLong(2, seq);
    highWater.executeUpdate();
  }

  void commit() throws SQLException {
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
      db.close();
    } catch (SQLException e) {
      throw new IOException(file + " did not close cleanly: " + e.getMessage(), e);
    }
  }
}
