package dev.tether.cli;

import dev.tether.server.AuditLogFile;
import dev.tether.server.ServerListener;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code tether serve --audit-log FILE}: one JSON line per host-agent interaction through an
 * {@link AuditLogFile} (the library's own sink), rotated by size.
 */
final class AuditOptions {
  @Option(names = "--audit-log", paramLabel = "FILE",
      description = "Write one JSON line per request on an instance's routes or /mcp (time, token id, never the token,"
          + " instance, session, msg_id, type, route, status, bytes) to FILE: 0600, rotated by size into FILE.1..FILE.N;"
          + " an earlier run's FILE becomes FILE.1. A symbolic link, FIFO or directory there is refused.")
  Path file;

  @Option(names = "--audit-log-max-bytes", paramLabel = "SIZE", converter = ByteSize.class,
      description = "Largest size of one audit file before it rotates (bytes, KiB, MiB, GiB; at least 4KiB). Default: 64MiB.")
  Long maxBytes;

  @Option(names = "--audit-log-keep", paramLabel = "N",
      description = "Rotated audit files kept (FILE.1..FILE.N); the log takes at most (N+1) x --audit-log-max-bytes. Default: 4.")
  Integer keep;

  private AuditLogFile log;

  /**
   * The audit log's listener ({@link ServerListener#NONE} without {@code --audit-log}), opened now.
   *
   * @throws UsageException with one line when a flag is out of range or the file cannot be used
   */
  ServerListener open() {
    if (file == null) {
      if (maxBytes != null || keep != null) {
        throw new UsageException("--audit-log-max-bytes and --audit-log-keep need --audit-log");
      }
      return ServerListener.NONE;
    }
    long max = maxBytes == null ? AuditLogFile.DEFAULT_MAX_BYTES : maxBytes;
    if (max < AuditLogFile.MIN_MAX_BYTES) {
      throw new UsageException("--audit-log-max-bytes must be at least " + AuditLogFile.MIN_MAX_BYTES + " but was " + max);
    }
    int n = keep == null ? AuditLogFile.DEFAULT_KEEP : keep;
    if (n < 0) {
      throw new UsageException("--audit-log-keep must be at least 0 but was " + n);
    }
    try {
      log = AuditLogFile.open(file, max, n);
    } catch (IOException e) {
      throw new UsageException("--audit-log: " + e.getMessage());
    }
    return log;
  }

  /** Writes what is queued and closes the file (after the server stopped). */
  void close() {
    if (log != null) {
      log.close();
    }
  }
}
