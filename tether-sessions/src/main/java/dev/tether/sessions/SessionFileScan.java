package dev.tether.sessions;

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
      while (true) {
        // The chunk's complete lines in place, with one parser; the line the run stops at (and a
        // line that spans chunks) is read on its own below, which also reports it.
        int end = reader.completeLinesEnd();
        if (end > reader.chunkPos()) {
          reader.skipLines(SessionLineCodec.readRun(reader.chunk(), reader.chunkPos(), end, maxLineBytes, turns));
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
