package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The baseline for durable appends: what a straightforward write-through journal does, one
 * transaction (and so one fsync with {@code synchronous=FULL}) per append under one lock, same
 * schema and WAL mode as the SDK's journal. Not part of the SDK.
 */
final class NaiveSqliteJournal implements AutoCloseable {
  private final ReentrantLock lock = new ReentrantLock();
  private final Connection db;
  private final PreparedStatement insert;
  private long seq;

  NaiveSqliteJournal(Path file) throws SQLException {
    db = DriverManager.getConnection("jdbc:sqlite:" + file);
    try (Statement st = db.createStatement()) {
      st.execute("PRAGMA journal_mode=WAL");
      st.execute("PRAGMA synchronous=FULL");
      st.execute("CREATE TABLE IF NOT EXISTS frames (instance TEXT NOT NULL, seq INTEGER NOT NULL, "
          + "frame BLOB NOT NULL, PRIMARY KEY (instance, seq))");
    }
    insert = db.prepareStatement("INSERT INTO frames(instance, seq, frame) VALUES (?, ?, ?)");
  }

  long append(String instance, Frame frame) throws SQLException {
    lock.lock();
    try {
      long s = ++seq;
      insert.setString(1, instance);
      insert.setLong(2, s);
      insert.setBytes(3, FrameCodec.standard().write(frame.withSeq(s)));
      insert.executeUpdate(); // autocommit: one transaction, one fsync
      return s;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() throws SQLException {
    insert.close();
    db.close();
  }
}
