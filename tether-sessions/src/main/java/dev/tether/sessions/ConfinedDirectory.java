package dev.tether.sessions;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one way into a directory that someone else can change while we use it: a VM guest's
 * workspace (blobs in {@code .aegis/blobs}) or a data directory. A root is opened once; every
 * name below it is opened relative to an already opened directory, one component at a time,
 * without following symbolic links, and files are used through the handle that was opened.
 *
 * <p><b>Threat model.</b> The guest shares the workspace and races the daemon: between any two
 * system calls it may rename, delete or replace any entry it can write, for instance swap a
 * directory with a symbolic link to {@code /} in one atomic {@code renameat2(RENAME_EXCHANGE)},
 * thousands of times a second. So checking a path ({@code Files.isSymbolicLink(dir)}) and then
 * opening it by name is not a check: the name is resolved again at the open, after the swap. Here
 * nothing is resolved twice. Each directory is a {@link SecureDirectoryStream} (an open file
 * descriptor); each child is opened with {@code openat(dirfd, name, O_NOFOLLOW)}; renames, deletes
 * and attribute reads are {@code renameat}, {@code unlinkat} and {@code fstatat} on that
 * descriptor. A swapped directory can make an operation fail or act inside the guest's own tree,
 * never reach outside it. The root itself is configured by the host and trusted (its path may
 * contain links); the root's path is also where new directories are staged (see
 * {@link #createDirectory}).
 *
 * <p><b>Regular files only.</b> {@link #openFile} accepts a regular file and nothing else: a
 * link, FIFO, socket, device or directory is an {@link UnsafeFileException}, checked with
 * {@code fstatat} before the open and again on the handle after it (a handle that cannot seek is a
 * FIFO or a terminal). Sizes come from the open handle, never from a path. A FIFO deserves care:
 * {@code open(O_RDONLY)} on one blocks until a writer appears, and Java has no {@code O_NONBLOCK},
 * so a FIFO swapped in between the {@code fstatat} and the open would hang the calling thread for
 * ever. Every open is therefore guarded by a watchdog (one shared daemon thread): if the open has
 * not returned after {@value #UNBLOCK_AFTER_MILLIS} ms, it opens the same name through the same
 * directory handle with {@code O_RDWR | O_NOFOLLOW} (which never blocks on a FIFO on Linux and is
 * the writer the blocked reader waits for) and closes it at once; the blocked open returns, and
 * the seek check refuses the FIFO. Device nodes cannot be made in a shared directory without
 * privileges; a block device would pass the seek check, which is why reads of guest files are
 * also checked by content (blobs by hash).
 *
 * <p><b>Writes</b> ({@link #write}) go to a temp file created with {@code O_CREAT | O_EXCL |
 * O_NOFOLLOW}, mode 0600, in the opened directory, are fsynced, and are renamed into place with
 * {@code renameat} relative to the same handle (replacing a file, or a link planted at the name,
 * never following it); the directory is then fsynced where the platform allows. Directories are
 * created 0700.
 *
 * <p><b>Errors.</b> A name that is not one plain component ({@code ""}, {@code .}, {@code ..},
 * anything with {@code /} or NUL) is an {@link IllegalArgumentException}: callers validate wire
 * input first. A missing entry is a {@link NoSuchFileException}; a planted one an
 * {@link UnsafeFileException} naming it relative to the root (never the host path); anything else
 * an {@link IOException}. A platform without {@link SecureDirectoryStream} (the JDK gives one on
 * Linux and the BSDs, not on Windows) is refused when the root is opened, with an
 * {@link IOException} saying so: there is no safe fallback.
 *
 * <p><b>Thread-safety.</b> Thread-safe: the handle's operations are each one system call, and an
 * instance holds no other state. Each instance holds one file descriptor until {@link #close}; a
 * child opened from it is independent, but needs its root open to create directories. Closing one
 * that another thread is using makes that thread's operation fail, nothing worse.
 */
public final class ConfinedDirectory implements Closeable {
  /** How long an open may block before the watchdog opens the same name for writing. */
  static final long UNBLOCK_AFTER_MILLIS = 500;

  private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;
  private static final FileAttribute<Set<PosixFilePermission>> FILE_MODE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  private static final FileAttribute<Set<PosixFilePermission>> DIR_MODE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
  private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, NOFOLLOW);
  private static final Set<OpenOption> UNBLOCK = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE, NOFOLLOW);
  private static final Set<OpenOption> CREATE = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, NOFOLLOW);
  private static final SecureRandom RANDOM = new SecureRandom();
  /** Serialises directory creation in this process, so two threads never replace each other's new directory. */
  private static final ReentrantLock CREATING = new ReentrantLock();
  private static final ScheduledThreadPoolExecutor WATCHDOG = watchdog();

  private final Root root;
  private final SecureDirectoryStream<Path> dir;
  private final String where; // relative to the root, for messages: "" for the root itself

  private ConfinedDirectory(Root root, SecureDirectoryStream<Path> dir, String where) {
    this.root = root;
    this.dir = dir;
    this.where = where;
  }

  /** The trusted root: its path (where new directories are staged) and its handle. */
  private record Root(Path path, SecureDirectoryStream<Path> dir) {}

  /**
   * Opens the existing directory {@code root} (trusted: links in its path are followed).
   *
   * @throws NoSuchFileException when it does not exist
   * @throws IOException when it is not a directory, or this platform has no {@link SecureDirectoryStream}
   */
  public static ConfinedDirectory open(Path root) throws IOException {
    Objects.requireNonNull(root, "root");
    Path abs = root.toAbsolutePath().normalize();
    DirectoryStream<Path> ds = Files.newDirectoryStream(abs);
    if (!(ds instanceof SecureDirectoryStream)) {
      ds.close();
      throw new IOException("cannot confine file access under " + abs + ": this platform ("
          + System.getProperty("os.name") + ") gives no SecureDirectoryStream, so names below it could not be opened"
          + " without following links; refusing rather than risk it");
    }
    SecureDirectoryStream<Path> sds = (SecureDirectoryStream<Path>) ds;
    return new ConfinedDirectory(new Root(abs, sds), sds, "");
  }

  /** As {@link #open}, first creating {@code root} and its missing parents (0700) when it is missing. */
  public static ConfinedDirectory openOrCreate(Path root) throws IOException {
    Path abs = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
    if (!Files.isDirectory(abs)) {
      try {
        Files.createDirectories(abs, DIR_MODE);
      } catch (UnsupportedOperationException e) {
        Files.createDirectories(abs);
      }
    }
    return open(abs);
  }

  /** This directory's path relative to the root ({@code ""} for the root), as messages name it. */
  public String where() {
    return where;
  }

  /** The attributes of entry {@code name}, not following a link; empty when there is none. */
  public Optional<BasicFileAttributes> attributes(String name) throws IOException {
    return stat(component(name));
  }

  /**
   * The directory {@code name}, opened without following a link.
   *
   * @throws NoSuchFileException when there is none
   * @throws UnsafeFileException when it is a link or not a directory
   */
  public ConfinedDirectory directory(String name) throws IOException {
    Path p = component(name);
    return openDirectory(p, stat(p).orElseThrow(() -> new NoSuchFileException(child(p))));
  }

  /** As {@link #directory}, empty when there is no entry {@code name}. */
  public Optional<ConfinedDirectory> findDirectory(String name) throws IOException {
    Path p = component(name);
    Optional<BasicFileAttributes> attrs = stat(p);
    return attrs.isEmpty() ? Optional.empty() : Optional.of(openDirectory(p, attrs.get()));
  }

  /**
   * The directory {@code name}, created 0700 when missing. It is made under a random name directly
   * in the trusted root (by path: the root's path is trusted and the new name is not followed) and
   * renamed into this directory through both handles, so no directory is ever created through a
   * name the guest could have swapped.
   *
   * @throws UnsafeFileException when {@code name} is a link or not a directory
   */
  public ConfinedDirectory createDirectory(String name) throws IOException {
    Path p = component(name);
    CREATING.lock();
    try {
      Optional<BasicFileAttributes> attrs = stat(p);
      if (attrs.isPresent()) {
        return openDirectory(p, attrs.get());
      }
      String staging = ".tmp-dir-" + randomHex();
      Path staged = root.path().resolve(staging);
      try {
        Files.createDirectory(staged, DIR_MODE);
      } catch (UnsupportedOperationException e) {
        Files.createDirectory(staged);
      }
      try {
        root.dir().move(Path.of(staging), dir, p);
      } catch (IOException e) {
        deleteQuietly(root.dir(), Path.of(staging));
        if (stat(p).isEmpty()) {
          throw e;
        }
      }
      return openDirectory(p, stat(p).orElseThrow(() -> new NoSuchFileException(child(p))));
    } finally {
      CREATING.unlock();
    }
  }

  /**
   * Opens the regular file {@code name} for reading, not following a link; its size is the open
   * handle's. The caller closes it.
   *
   * @throws NoSuchFileException when there is none
   * @throws UnsafeFileException when it is a link, a directory, a FIFO, socket or device
   */
  public OpenFile openFile(String name) throws IOException {
    Path p = component(name);
    BasicFileAttributes before = stat(p).orElseThrow(() -> new NoSuchFileException(child(p)));
    requireRegular(p, before);
    return openChecked(p);
  }

  /**
   * The open after the {@code fstatat} check: what a guest that swaps a FIFO in between meets.
   * Package-private so a test can drive it deterministically; callers use {@link #openFile}.
   */
  OpenFile openChecked(Path p) throws IOException {
    SeekableByteChannel ch;
    try {
      ch = guarded(p, () -> dir.newByteChannel(p, READ));
    } catch (NoSuchFileException e) {
      throw e;
    } catch (FileSystemException e) {
      throw refusalOr(p, e);
    }
    try {
      ch.position(0); // a FIFO or terminal cannot seek: refused before any read could block
      return new OpenFile(ch, ch.size(), child(p));
    } catch (IOException e) {
      ch.close();
      throw new UnsafeFileException(child(p), "is not a regular file (it cannot seek); only plain files are read");
    }
  }

  /**
   * The bytes of the regular file {@code name}, at most {@code maxBytes} (from the open handle).
   *
   * @throws FileSystemException when it holds more than {@code maxBytes} or changes size while read
   */
  public byte[] read(String name, long maxBytes) throws IOException {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxBytes must be >= 0 but was " + maxBytes);
    }
    try (OpenFile f = openFile(name)) {
      if (f.size() > maxBytes) {
        throw new FileSystemException(f.where(), null, "is " + f.size() + " bytes, over the limit of " + maxBytes);
      }
      return f.readAll();
    }
  }

  /** Writes the bytes of a file; called once. */
  @FunctionalInterface
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /** Writes {@code bytes} to {@code name} atomically, owner-only; see {@link #write(String, Content)}. */
  public void write(String name, byte[] bytes) throws IOException {
    Objects.requireNonNull(bytes, "bytes");
    write(name, out -> out.write(bytes));
  }

  /**
   * Writes {@code content} to {@code name} atomically (see the class comment): a reader sees the
   * old file or the new one. The new file is 0600. Exceptions of {@code content} propagate after
   * the temp file is deleted.
   *
   * @throws UnsafeFileException when {@code name} is a directory
   */
  public void write(String name, Content content) throws IOException {
    Path p = component(name);
    Objects.requireNonNull(content, "content");
    Path tmp = Path.of(".tmp-" + randomHex() + ".part");
    boolean moved = false;
    try {
      try (SeekableByteChannel ch = dir.newByteChannel(tmp, CREATE, FILE_MODE)) {
        OutputStream out = Channels.newOutputStream(ch);
        content.writeTo(out);
        out.flush();
        if (ch instanceof FileChannel fc) {
          fc.force(true);
        }
      }
      try {
        dir.move(tmp, dir, p);
      } catch (FileSystemException e) {
        throw refusalOr(p, e);
      }
      moved = true;
      fsync();
    } finally {
      if (!moved) {
        deleteQuietly(dir, tmp);
      }
    }
  }

  /**
   * Deletes the entry {@code name} (a file, or a link itself, never its target); false when there
   * was none.
   *
   * @throws UnsafeFileException when it is a directory (see {@link #deleteTree})
   */
  public boolean delete(String name) throws IOException {
    Path p = component(name);
    Optional<BasicFileAttributes> attrs = stat(p);
    if (attrs.isEmpty()) {
      return false;
    }
    if (attrs.get().isDirectory()) {
      throw new UnsafeFileException(child(p), "is a directory where a file was expected");
    }
    try {
      dir.deleteFile(p);
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /**
   * Deletes {@code name} and, when it is a directory, everything below it, each entry through its
   * parent's handle (a link is removed, never followed); false when there was none.
   */
  public boolean deleteTree(String name) throws IOException {
    Path p = component(name);
    Optional<BasicFileAttributes> attrs = stat(p);
    if (attrs.isEmpty()) {
      return false;
    }
    if (!attrs.get().isDirectory() || attrs.get().isSymbolicLink()) {
      return delete(name);
    }
    try (ConfinedDirectory sub = openDirectory(p, attrs.get())) {
      for (String entry : sub.list()) {
        sub.deleteTree(entry);
      }
    }
    try {
      dir.deleteDirectory(p);
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /** The names of the entries in this directory, in no particular order ({@code .} and {@code ..} excluded). */
  public List<String> list() throws IOException {
    List<String> names = new ArrayList<>();
    try (SecureDirectoryStream<Path> s = dir.newDirectoryStream(Path.of("."), NOFOLLOW)) {
      for (Path entry : s) {
        names.add(entry.getFileName().toString());
      }
    }
    return names;
  }

  /**
   * The bytes of the regular files directly in this directory, from their entries ({@code fstatat}
   * relative to the handle): nothing is opened and no link followed, so a FIFO, a link or a
   * directory counts nothing and blocks nothing; an entry gone since it was listed counts nothing.
   */
  public long regularFileBytes() throws IOException {
    long total = 0;
    for (String name : list()) {
      Optional<BasicFileAttributes> attrs = stat(Path.of(name));
      if (attrs.isPresent() && attrs.get().isRegularFile()) {
        total += attrs.get().size();
      }
    }
    return total;
  }

  @Override
  public void close() throws IOException {
    dir.close();
  }

  @Override
  public String toString() {
    return "ConfinedDirectory[" + (where.isEmpty() ? "." : where) + "]";
  }

  /**
   * A regular file opened for reading by {@link #openFile}, with the size its handle had when it
   * was opened. Not thread-safe (one channel position). The caller closes it.
   *
   * @param channel the open handle
   * @param size its size, from the handle
   * @param where its path relative to the root, for messages
   */
  public record OpenFile(SeekableByteChannel channel, long size, String where) implements Closeable {
    /**
     * All {@link #size()} bytes from the current position 0; a file that is shorter or longer by
     * the end is a {@link FileSystemException} ("changed size while being read").
     */
    public byte[] readAll() throws IOException {
      if (size > Integer.MAX_VALUE - 8) {
        throw new FileSystemException(where, null, "is " + size + " bytes, too large to read into memory");
      }
      byte[] bytes = new byte[(int) size];
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      while (buf.hasRemaining() && channel.read(buf) >= 0) {
        // keep reading
      }
      if (buf.hasRemaining() || channel.read(ByteBuffer.allocate(1)) > 0) {
        throw new FileSystemException(where, null, "changed size while being read");
      }
      return bytes;
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  // ---------------------------------------------------------------------------------------------

  private ConfinedDirectory openDirectory(Path p, BasicFileAttributes attrs) throws IOException {
    if (attrs.isSymbolicLink()) {
      throw new UnsafeFileException(child(p), "is a symbolic link; it must be a plain directory");
    }
    if (!attrs.isDirectory()) {
      throw new UnsafeFileException(child(p), "is not a directory");
    }
    SecureDirectoryStream<Path> sub;
    try {
      sub = guarded(p, () -> dir.newDirectoryStream(p, NOFOLLOW));
    } catch (NotDirectoryException e) {
      throw new UnsafeFileException(child(p), "is not a directory");
    } catch (NoSuchFileException e) {
      throw e;
    } catch (FileSystemException e) {
      throw refusalOr(p, e);
    }
    return new ConfinedDirectory(root, sub, child(p));
  }

  private void requireRegular(Path p, BasicFileAttributes attrs) throws UnsafeFileException {
    if (attrs.isSymbolicLink()) {
      throw new UnsafeFileException(child(p), "is a symbolic link; only plain files are read");
    }
    if (attrs.isDirectory()) {
      throw new UnsafeFileException(child(p), "is a directory where a file was expected");
    }
    if (!attrs.isRegularFile()) {
      throw new UnsafeFileException(child(p), "is not a regular file (a FIFO, socket or device); only plain files are read");
    }
  }

  /** {@code e}, or the refusal it really was: an open of a link with O_NOFOLLOW fails with ELOOP, say. */
  private IOException refusalOr(Path p, FileSystemException e) throws IOException {
    Optional<BasicFileAttributes> now = stat(p);
    if (now.isPresent() && now.get().isSymbolicLink()) {
      return new UnsafeFileException(child(p), "is a symbolic link");
    }
    if (now.isPresent() && now.get().isOther()) {
      return new UnsafeFileException(child(p), "is not a regular file (a FIFO, socket or device)");
    }
    if (now.isPresent() && now.get().isDirectory()) {
      return new UnsafeFileException(child(p), "is a directory where a file was expected");
    }
    return e;
  }

  private Optional<BasicFileAttributes> stat(Path p) throws IOException {
    try {
      return Optional.of(dir.getFileAttributeView(p, BasicFileAttributeView.class, NOFOLLOW).readAttributes());
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  private void fsync() {
    try (SeekableByteChannel ch = dir.newByteChannel(Path.of("."), Set.of(StandardOpenOption.READ))) {
      if (ch instanceof FileChannel fc) {
        fc.force(true);
      }
    } catch (IOException | RuntimeException e) {
      // Best effort: the file is already in place atomically; only its durability is at stake.
    }
  }

  @FunctionalInterface
  private interface Open<T> {
    T open() throws IOException;
  }

  /** Runs {@code open} with the watchdog armed for {@code p}; see the class comment. */
  private <T> T guarded(Path p, Open<T> open) throws IOException {
    ScheduledFuture<?> unblock = WATCHDOG.scheduleWithFixedDelay(() -> unblock(p),
        UNBLOCK_AFTER_MILLIS, UNBLOCK_AFTER_MILLIS, TimeUnit.MILLISECONDS);
    try {
      return open.open();
    } finally {
      unblock.cancel(false);
    }
  }

  /** Opens {@code p} read-write without following a link and closes it: a FIFO's blocked reader gets its writer. */
  private void unblock(Path p) {
    try (SeekableByteChannel ignored = dir.newByteChannel(p, UNBLOCK)) {
      // opened and closed: that was the point
    } catch (IOException | ClosedDirectoryStreamException | SecurityException e) {
      // a regular file we may not write, a directory, gone already: nothing was blocked on it
    }
  }

  private static void deleteQuietly(SecureDirectoryStream<Path> in, Path name) {
    try {
      in.deleteDirectory(name);
    } catch (IOException | RuntimeException e) {
      try {
        in.deleteFile(name);
      } catch (IOException | RuntimeException e2) {
        // left for a person to remove: a temp name no reader treats as data
      }
    }
  }

  private String child(Path p) {
    return where.isEmpty() ? p.toString() : where + "/" + p;
  }

  /** {@code name} as a relative path of exactly one plain component. */
  private static Path component(String name) {
    Objects.requireNonNull(name, "name");
    if (!isComponent(name)) {
      throw new IllegalArgumentException("not one plain path component: '"
          + (name.length() > 80 ? name.substring(0, 80) + "..." : name).replaceAll("\\p{Cntrl}", "?") + "'");
    }
    return Path.of(name);
  }

  /**
   * Whether {@code name} is one plain path component: not empty, not {@code .} or {@code ..}, no
   * {@code /}, {@code \} or NUL, no unpaired surrogate (it has no file-system spelling), at
   * most 255 UTF-8 bytes.
   */
  public static boolean isComponent(String name) {
    return name != null && !name.isEmpty() && !name.equals(".") && !name.equals("..")
        && name.indexOf('/') < 0 && name.indexOf('\\') < 0 && name.indexOf('\0') < 0
        && name.codePoints().noneMatch(cp -> cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE)
        && name.getBytes(StandardCharsets.UTF_8).length <= 255;
  }

  private static String randomHex() {
    byte[] b = new byte[12];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  private static ScheduledThreadPoolExecutor watchdog() {
    ScheduledThreadPoolExecutor s = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "tether-open-watchdog");
      t.setDaemon(true);
      return t;
    });
    s.setRemoveOnCancelPolicy(true);
    return s;
  }
}
