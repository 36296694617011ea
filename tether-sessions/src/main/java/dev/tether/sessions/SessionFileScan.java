package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The result of reading one session file: its turns, how many lines were skipped, and how many
 * leading bytes are whole lines. Reading never fails on content, only on I/O.
 */
record SessionFileScan(List<SessionTurn> turns, int skippedLines, long completeBytes) {
  private static final System.Logger LOG = System.getLogger(SessionLog.class.getName());

  static SessionFileScan read(Path file, int maxLineBytes) throws IOException {
    List<SessionTurn> turns = new ArrayList<>();
    int skipped = 0;
    long complete = 0;
    try (InputStream in = Files.newInputStream(file)) {
      SessionLineReader reader = new SessionLineReader(in, maxLineBytes);
      CanonicalLineReader canonical = new CanonicalLineReader();
      int[] lines = new int[1];
      while (true) {
        // The chunk's complete lines in place; the line the run stops at (and a line that spans
        // chunks) is read on its own below, which also reports it.
        int end = reader.completeLinesEnd();
        if (end > reader.chunkPos()) {
          lines[0] = 0;
          int stop = readRun(canonical, reader.chunk(), reader.chunkPos(), end, maxLineBytes, turns, lines);
          reader.skipLines(stop, lines[0]);
        }
        SessionLineReader.Kind kind = reader.next();
        if (kind == SessionLineReader.Kind.END) {
          break;
        }
        switch (kind) {
          case LINE -> {
            try {
              turns.add(SessionLineCodec.read(reader.line(), 0, reader.lineLength()));
            } catch (SessionLineException e) {
              skipped++;
              warn(file, reader, "it is not a turn (" + e.getMessage() + ")");
            }
          }
          case TOO_LONG -> {
            skipped++;
            warn(file, reader, "it is longer than the limit of " + maxLineBytes + " bytes");
          }
          case TORN -> {
            skipped++;
            warn(file, reader, "it has no newline: a write torn by a crash");
          }
          default -> throw new AssertionError(kind);
        }
      }
      complete = reader.completeBytes();
    } catch (NoSuchFileException e) {
      return new SessionFileScan(new ArrayList<>(), 0, 0);
    }
    return new SessionFileScan(turns, skipped, complete);
  }

  /**
   * Reads the turns of the complete lines in {@code bytes[from, to)} ({@code to} just after a
   * newline) in place: each line in the writer's own form by the {@link CanonicalLineReader}, any
   * other by the strict {@link SessionLineCodec#read}, exactly as its line-by-line reading would.
   * Stops at the first line that is too long, blank or not a turn, and returns where it starts, so
   * that the line-by-line reading takes over there and reports it; {@code lines[0]} counts the lines
   * read.
   */
  private static int readRun(CanonicalLineReader canonical, byte[] bytes, int from, int to, int maxLineBytes,
      List<SessionTurn> into, int[] lines) {
    int at = from;
    while (at < to) {
      SessionTurn turn = canonical.readLine(bytes, at, to);
      int newline;
      if (turn != null) {
        newline = canonical.lineEnd();
      } else {
        newline = at;
        while (bytes[newline] != '\n') {
          newline++;
        }
      }
      if (newline - at > maxLineBytes) {
        return at;
      }
      if (turn == null) {
        try {
          turn = SessionLineCodec.read(bytes, at, newline - at);
        } catch (SessionLineException e) {
          return at; // a blank line or not a turn: the line-by-line reading skips or reports it
        }
      }
      into.add(turn);
      lines[0]++;
      at = newline + 1;
    }
    return at;
  }

  /** Adds every blob the file's readable turns refer to. */
  static void collectBlobKeys(Path file, int maxLineBytes, Set<BlobKey> into) throws IOException {
    for (SessionTurn turn : read(file, maxLineBytes).turns()) {
      into.addAll(turn.blobKeys());
    }
  }

  private static void warn(Path file, SessionLineReader reader, String why) {
    LOG.log(Level.WARNING, "session file {0}: skipping line {1} (at byte {2}) because {3}; the other turns are kept",
        file.getFileName(), reader.lineNumber(), reader.lineStart(), why);
  }
}
