package dev.tether.sessions;

import dev.tether.api.Conversation;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Image;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.Role;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.User;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.files.AtomicFiles;
import dev.tether.api.files.PrivateFiles;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One conversation session: an append-only JSONL file with one turn per line, and its turns in
 * memory. Obtained from {@link SessionStore#open(SessionKey)}.
 *
 * <p>Design. <b>Loading</b> reads lines of at most {@code maxLineBytes} (by default enough for
 * any frame within the limits);
 * an over-long line, a line that is not a turn, and a torn last line (no newline: a crash during
 * a write) are skipped with a warning, and every other turn loads. The torn tail is then cut off
 * the file so the next append starts on a fresh line. <b>Appending</b> writes the whole line and
 * its newline, fsyncs (unless the store is not durable) and only then returns and adds the turn
 * in memory: a turn that {@code append} returned for survives a crash. Blobs are put before the
 * turn that refers to them is appended, so a turn never refers to a blob that was not written.
 * <b>Concurrency</b>: thread-safe; one lock orders appends and guards the in-memory list, and
 * {@link #assembleContext} holds it only while selecting turns (no I/O), then reads blobs
 * outside it. One process may write a session file at a time. <b>Open files</b>: the store keeps
 * the files of its most recently used logs open (see {@link OpenFiles}); an idle log's file is
 * closed and opened again by its next append, which callers do not notice.
 */
public final class SessionLog implements Closeable {
  private static final System.Logger LOG = System.getLogger(SessionLog.class.getName());

  private final SessionKey key;
  private final Path file;
  private final SessionStore.Settings settings;
  private final ReentrantLock lock = new ReentrantLock();
  private final List<SessionTurn> turns;
  private final int skippedLines;
  private final OpenFiles openFiles;
  /** Open while the log is among the store's recently used ones; null while idle (see OpenFiles). */
  private FileChannel channel;
  /** The file's length: where the next line goes, also after the channel was closed while idle. */
  private long length;
  private boolean closed;

  private SessionLog(SessionKey key, Path file, SessionStore.Settings settings, SessionFileScan scan, OpenFiles openFiles) {
    this.key = key;
    this.file = file;
    this.settings = settings;
    this.turns = scan.turns();
    this.skippedLines = scan.skippedLines();
    this.openFiles = openFiles;
  }

  static SessionLog open(SessionKey key, Path file, SessionStore.Settings settings, OpenFiles openFiles) throws IOException {
    SessionFileScan scan = SessionFileScan.read(file, settings.maxLineBytes());
    SessionLog log = new SessionLog(key, file, settings, scan, openFiles);
    log.openForAppend(scan.completeBytes());
    openFiles.touched(log);
    return log;
  }

  private void openForAppend(long completeBytes) throws IOException {
    boolean created = !Files.exists(file);
    channel = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
        PrivateFiles.fileAttributes(file));
    if (!created) {
      PrivateFiles.restrict(file); // written by an earlier version with the umask's mode
    }
    long size = channel.size();
    if (size > completeBytes) {
      LOG.log(Level.WARNING, "session {0}: cutting a torn last line of {1} bytes off {2}",
          key, size - completeBytes, file.getFileName());
      channel.truncate(completeBytes);
      if (settings.durable()) {
        channel.force(true);
      }
    }
    channel.position(completeBytes);
    length = completeBytes;
    if (created && settings.durable()) {
      AtomicFiles.fsyncDirectory(file.getParent());
    }
  }

  /**
   * Closes the file while the log is idle; the turns stay in memory and the next append opens
   * the file again at its known length. Called by {@link OpenFiles}, never under its lock.
   */
  void releaseFile() throws IOException {
    lock.lock();
    try {
      if (channel != null) {
        FileChannel c = channel;
        channel = null;
        c.close();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether the file is open now (false while idle or closed). */
  boolean holdsFile() {
    lock.lock();
    try {
      return channel != null;
    } finally {
      lock.unlock();
    }
  }

  /** Under the lock: the channel, opened again at the known length when it was released. */
  private FileChannel channel() throws IOException {
    if (channel == null) {
      FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE);
      c.position(length);
      channel = c;
    }
    return channel;
  }

  public SessionKey key() {
    return key;
  }

  /** Lines skipped while loading (over-long, malformed or torn). */
  public int skippedLines() {
    return skippedLines;
  }

  /** The turns, oldest first: a snapshot copy. */
  public List<SessionTurn> turns() {
    lock.lock();
    try {
      return List.copyOf(turns);
    } finally {
      lock.unlock();
    }
  }

  public int size() {
    lock.lock();
    try {
      return turns.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends a turn durably: when this returns, the turn is on disk (fsynced when the store is
   * durable) and in {@link #turns()}.
   *
   * @throws IllegalArgumentException when the turn's line would be longer than the line limit,
   *     since loading would then skip it
   * @throws IOException when the write fails; the file is rolled back to its previous length
   */
  public void append(SessionTurn turn) throws IOException {
    byte[] json = SessionLineCodec.write(Objects.requireNonNull(turn, "turn"));
    if (json.length > settings.maxLineBytes()) {
      throw new IllegalArgumentException(tooLong(json.length));
    }
    appendLine(turn, json);
  }

  private String tooLong(int bytes) {
    return "the turn is " + bytes + " bytes as JSON but a session line may hold at most "
        + settings.maxLineBytes() + "; store large content (images) as blobs or shorten it";
  }

  private void appendLine(SessionTurn turn, byte[] json) throws IOException {
    try {
      writeLine(turn, json);
    } finally {
      openFiles.touched(this); // outside the lock: it may close other, idle logs
    }
  }

  private void writeLine(SessionTurn turn, byte[] json) throws IOException {
    ByteBuffer line = ByteBuffer.allocate(json.length + 1).put(json).put((byte) '\n').flip();
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("session " + key + " is closed");
      }
      FileChannel out = channel();
      long before = length;
      try {
        while (line.hasRemaining()) {
          out.write(line);
        }
        if (settings.durable()) {
          out.force(false);
        }
      } catch (IOException e) {
        rollBack(out, before, e);
        throw e;
      }
      length = before + json.length + 1;
      turns.add(turn);
    } finally {
      lock.unlock();
    }
  }

  private static void rollBack(FileChannel out, long before, IOException cause) {
    try {
      out.truncate(before);
      out.position(before);
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Stores a {@code user.message} frame as a user turn: validates the frame, puts its images in
   * the blob store, and appends the turn with image refs and the text attributed to the sender
   * ({@code "[Alice]: text"}).
   *
   * <p>Every frame the store's limits accept fits in a session line: the default line limit is
   * derived from {@link dev.tether.api.Limits#maxFrameBytes()} (see
   * {@link SessionStore.Builder#maxLineBytes}). Should a configured limit be smaller, the frame is
   * refused with {@link dev.tether.api.ErrorCode#FRAME_TOO_LARGE}, as any problem with a wire
   * frame is.
   *
   * @return the appended turn
   * @throws dev.tether.api.TetherException when the frame is not valid or too large to store
   *     (nothing is stored)
   * @throws IllegalArgumentException when the frame is not a {@code user.message} or belongs to another session
   */
  public SessionTurn ingest(Frame frame) throws IOException {
    if (!FrameTypes.USER_MESSAGE.equals(frame.type())) {
      throw new IllegalArgumentException("only user.message frames are ingested, not " + frame.type());
    }
    if (frame.session().isPresent() && !frame.session().get().equals(key)) {
      throw new IllegalArgumentException("the frame is for session " + frame.session().get() + ", not " + key);
    }
    settings.validator().validate(frame);
    Payload.UserMessage message = (Payload.UserMessage) frame.payloadView();
    Optional<String> user = message.user().map(SessionLog::displayName).filter(name -> !name.isEmpty());
    List<SessionPart> parts = new ArrayList<>(1 + message.images().size());
    String text = user.map(name -> "[" + name + "]: " + message.text()).orElse(message.text());
    if (!text.isEmpty()) {
      parts.add(new SessionPart.Text(text));
    }
    for (Image image : message.images()) {
      parts.add(storeImage(ImageData.of(image), image.mediaType()));
    }
    if (parts.isEmpty()) {
      parts.add(new SessionPart.Text(""));
    }
    SessionTurn turn = new SessionTurn(Role.USER, frame.ts().orElseGet(settings.clock()::instant), user, parts);
    byte[] json = SessionLineCodec.write(turn);
    if (json.length > settings.maxLineBytes()) {
      throw TetherException.of(ErrorCode.FRAME_TOO_LARGE, tooLong(json.length));
    }
    appendLine(turn, json);
    return turn;
  }

  /** Puts an image (from a tool, say) in the blob store and returns the ref to put in a turn. */
  public SessionPart.ImageRef storeImage(ImageData data, MediaType mediaType) throws IOException {
    try (InputStream in = data.openStream()) {
      BlobKey blob = settings.blobs().put(in, mediaType);
      return new SessionPart.ImageRef(blob, data.size());
    }
  }

  /**
   * The newest turns within both limits as a conversation for a model; see {@link ContextAssembler}.
   * The cost grows with the turns selected, not with the length of the session.
   */
  public Conversation assembleContext(String systemPrompt, int maxTurns, int maxChars) {
    List<SessionTurn> selected;
    lock.lock();
    try {
      selected = settings.assembler().select(turns, systemPrompt, maxTurns, maxChars);
    } finally {
      lock.unlock();
    }
    return settings.assembler().resolve(systemPrompt, selected);
  }

  private static String displayName(User user) {
    return user.name().isEmpty() ? user.id() : user.name();
  }

  boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  /** Closes the file; further appends fail. {@link SessionStore#open} then loads the session afresh. */
  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      if (!closed) {
        closed = true;
        if (channel != null) {
          channel.close();
          channel = null;
        }
      }
    } finally {
      lock.unlock();
    }
    openFiles.forget(this);
  }

  @Override
  public String toString() {
    return "SessionLog[" + key + ", " + file.getFileName() + "]";
  }
}
