package dev.tether.chat;

import dev.tether.api.files.AtomicFiles;
import dev.tether.api.files.PrivateFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The delivery ids a bridge has already handled (WhatsApp message ids, Slack event ids), kept in a
 * file of the bridge's state directory so that a platform's redelivery after a bridge restart is
 * still recognised and not forwarded twice.
 *
 * <p>Bounded: the newest {@code max} ids are remembered; older ones are forgotten first. The file is
 * one id per line, appended and forced to disk before {@link #firstTime} returns true, and rewritten
 * (temporary file, then an atomic rename) with only the newest {@code max} ids once it holds twice
 * that many lines. It is owner-only ({@code 0600}). An id that is not 1 to 200 printable ASCII
 * characters without spaces is remembered in memory only, so no input can break the file's lines;
 * unreadable lines of a damaged file are skipped. Thread-safe.
 */
public final class SeenIds {
  /** The longest id written to the file. */
  public static final int MAX_ID_CHARS = 200;
  private static final Pattern STORABLE = Pattern.compile("[\\x21-\\x7e]{1," + MAX_ID_CHARS + "}");

  private final Path file;
  private final int max;
  private final LinkedHashSet<String> ids = new LinkedHashSet<>();
  private int lines;

  private SeenIds(Path file, int max) {
    this.file = file;
    this.max = max;
  }

  /** Opens (or starts) the list in {@code file}, remembering at most {@code max} ids. */
  public static SeenIds open(Path file, int max) throws IOException {
    Objects.requireNonNull(file, "file");
    if (max < 1) {
      throw new IllegalArgumentException("max must be positive but was " + max);
    }
    SeenIds seen = new SeenIds(file, max);
    if (Files.exists(file)) {
      for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
        seen.lines++;
        if (STORABLE.matcher(line).matches()) {
          seen.remember(line);
        }
      }
    }
    return seen;
  }

  /**
   * Records {@code id}; true when it was not seen before (the delivery should be handled), false
   * for a repeat. A true answer is durable: the id is on disk when this returns.
   */
  public synchronized boolean firstTime(String id) throws IOException {
    Objects.requireNonNull(id, "id");
    if (ids.contains(id)) {
      return false;
    }
    remember(id);
    if (STORABLE.matcher(id).matches()) {
      append(id);
    }
    return true;
  }

  /** How many ids are remembered. */
  public synchronized int size() {
    return ids.size();
  }

  public Path file() {
    return file;
  }

  private void remember(String id) {
    ids.remove(id);
    ids.add(id);
    if (ids.size() > max) {
      ids.remove(ids.iterator().next());
    }
  }

  private void append(String id) throws IOException {
    if (lines + 1 > 2 * max) {
      rewrite();
      return;
    }
    try (FileChannel ch = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND),
        PrivateFiles.fileAttributes(file))) {
      ch.write(ByteBuffer.wrap((id + "\n").getBytes(StandardCharsets.ISO_8859_1)));
      ch.force(true);
    }
    lines++;
  }

  private void rewrite() throws IOException {
    List<String> keep = new ArrayList<>();
    for (String id : ids) {
      if (STORABLE.matcher(id).matches()) {
        keep.add(id);
      }
    }
    AtomicFiles.write(file, (String.join("\n", keep) + "\n").getBytes(StandardCharsets.ISO_8859_1));
    lines = keep.size();
  }
}
