package dev.tether.sessions;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Bounds the files a {@link SessionStore} keeps open: the files of at most {@code maxOpen} logs,
 * the most recently used ones. When a log opens or appends it is {@link #touched}; when that puts
 * more than {@code maxOpen} logs on the list, the least recently used ones release their files
 * ({@link SessionLog#releaseFile}). A released log keeps its turns and opens its file again on its
 * next append, so callers never see the difference.
 *
 * <p>Concurrency: one lock guards the access-ordered list and is never held while a log's lock is
 * taken. Victims are chosen under it and released after it is dropped, so a log that appends
 * (holding its own lock, then touching) and an eviction (taking a victim's lock) cannot deadlock.
 * A victim appending at that moment finishes first, then releases; its next append reopens. So
 * the bound can be exceeded for a moment by the appends in flight, never more.
 */
final class OpenFiles {
  private static final System.Logger LOG = System.getLogger(OpenFiles.class.getName());

  private final int maxOpen;
  private final ReentrantLock lock = new ReentrantLock();
  private final LinkedHashMap<SessionLog, Boolean> recent = new LinkedHashMap<>(16, 0.75f, true);

  OpenFiles(int maxOpen) {
    if (maxOpen < 1) {
      throw new IllegalArgumentException("maxOpen must be >= 1 but was " + maxOpen);
    }
    this.maxOpen = maxOpen;
  }

  /** {@code log} was just used with its file open: it becomes the most recent; idle ones beyond the bound are closed. */
  void touched(SessionLog log) {
    List<SessionLog> victims = null;
    lock.lock();
    try {
      recent.put(log, Boolean.TRUE);
      Iterator<SessionLog> eldest = recent.keySet().iterator();
      while (recent.size() > maxOpen && eldest.hasNext()) {
        SessionLog victim = eldest.next();
        eldest.remove();
        if (victims == null) {
          victims = new ArrayList<>();
        }
        victims.add(victim);
      }
    } finally {
      lock.unlock();
    }
    if (victims != null) {
      for (SessionLog victim : victims) {
        try {
          victim.releaseFile();
        } catch (IOException e) {
          // Closing a file opened for writing only: nothing is lost (appends fsync first).
          LOG.log(Level.WARNING, "closing idle session {0} failed: {1}", victim.key(), e.toString());
        }
      }
    }
  }

  /** {@code log} was closed: it no longer counts. */
  void forget(SessionLog log) {
    lock.lock();
    try {
      recent.remove(log);
    } finally {
      lock.unlock();
    }
  }

  /** How many logs are on the list now (logs whose file is open, up to appends in flight). */
  int size() {
    lock.lock();
    try {
      return recent.size();
    } finally {
      lock.unlock();
    }
  }
}
