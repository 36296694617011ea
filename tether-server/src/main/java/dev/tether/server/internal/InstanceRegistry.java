package dev.tether.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;

/**
 * The instances a {@code tether serve} knows, each with its workspace directory and its
 * per-channel watermarks (the reference daemon's {@code .../tether/watermark}).
 *
 * <p>Design: a map under one lock; changes are rare (registration, deletion, a client moving its
 * watermark). When the registry has a file (the server's {@code --data-dir}), every change rewrites
 * it whole: a temp file in the same directory, fsynced, renamed over the old one, so a crash leaves
 * the old or the new registry and never half of one. An instance id is also a directory name, so
 * ids are restricted to {@link #ID}; nothing else ever becomes a path.
 *
 * <p>With {@code autoCreate}, {@link #require} registers an unknown id with its default workspace
 * (the behaviour before the registry existed). Thread-safe.
 */
final class InstanceRegistry {
  /** Instance ids: a letter or digit, then letters, digits, dot, dash, underscore; at most 128. */
  static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  /**
   * One registered instance.
   *
   * @param id the instance id
   * @param workspace its workspace directory (absolute); blobs live in {@code .aegis/blobs}
   * @param createdAt when it was registered
   */
  record Entry(String id, Path workspace, Instant createdAt) {
    Entry {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(workspace, "workspace");
      Objects.requireNonNull(createdAt, "createdAt");
    }

    /** The directory of the instance's content-addressed blobs. */
    Path blobDir() {
      return workspace.resolve(".aegis").resolve("blobs");
    }
  }

  /** The outcome of {@link #put}. */
  record Put(Entry entry, boolean created) {}

  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Entry> entries = new LinkedHashMap<>();
  private final Map<String, Map<String, Long>> watermarks = new TreeMap<>();
  private final Path workspacesRoot;
  private final Path file; // null: in memory only
  private final boolean autoCreate;

  private InstanceRegistry(Path workspacesRoot, Path file, boolean autoCreate) {
    this.workspacesRoot = workspacesRoot.toAbsolutePath().normalize();
    this.file = file;
    this.autoCreate = autoCreate;
  }

  /**
   * A registry whose default workspaces live under {@code workspacesRoot/{id}}, loaded from and
   * saved to {@code file} when it is not null.
   *
   * @throws IOException when the file exists but cannot be read
   */
  static InstanceRegistry open(Path workspacesRoot, Path file, boolean autoCreate) throws IOException {
    InstanceRegistry r = new InstanceRegistry(workspacesRoot, file, autoCreate);
    if (file != null && Files.exists(file)) {
      r.load();
    }
    return r;
  }

  /**
   * An in-memory registry that registers instances on first use, with workspaces under
   * {@code $TMPDIR/tether-workspaces-<pid>}: how servers started without a registry behave.
   */
  static InstanceRegistry autoCreating() {
    return new InstanceRegistry(Path.of(System.getProperty("java.io.tmpdir"), "tether-workspaces-" + ProcessHandle.current().pid()),
        null, true);
  }

  boolean autoCreate() {
    return autoCreate;
  }

  /** Checks an instance id; the message says what an id may contain. */
  static String requireId(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException("instance id must be 1 to 128 letters, digits, '.', '-' or '_', starting with a letter or digit, but was '"
          + (id == null ? "" : id.length() > 64 ? id.substring(0, 64) + "..." : id) + "'");
    }
    return id;
  }

  Optional<Entry> find(String id) {
    lock.lock();
    try {
      return Optional.ofNullable(entries.get(id));
    } finally {
      lock.unlock();
    }
  }

  /**
   * The entry of a known instance; with auto-create an unknown (well-formed) id is registered.
   *
   * @throws TetherException {@code INSTANCE_NOT_FOUND} when the instance is unknown
   */
  Entry require(String id) {
    Optional<Entry> e = find(id);
    if (e.isPresent()) {
      return e.get();
    }
    if (autoCreate && ID.matcher(id).matches()) {
      try {
        return put(id, null).entry();
      } catch (IOException ex) {
        throw new UncheckedIOException(ex);
      }
    }
    throw notFound(id);
  }

  static TetherException notFound(String id) {
    String shown = id.length() > 64 ? id.substring(0, 64) + "..." : id;
    return TetherException.of(ErrorCode.INSTANCE_NOT_FOUND, "instance '" + shown + "' is not registered on this server;"
        + " create it with PUT /v1/instances/" + shown + ", start serve with --instance " + shown + ", or use --auto-create");
  }

  /**
   * Registers {@code id} with {@code workspace} (null: the default, {@code root/{id}}), creating
   * the directory. Registering again with the same or no workspace is not an error.
   *
   * @throws IllegalStateException when the instance exists with another workspace
   * @throws IllegalArgumentException when the id or workspace is not acceptable
   */
  Put put(String id, Path workspace) throws IOException {
    requireId(id);
    Path ws = workspace == null ? workspacesRoot.resolve(id) : workspace;
    if (!ws.isAbsolute()) {
      throw new IllegalArgumentException("workspace must be an absolute path but was '" + workspace + "'");
    }
    ws = ws.normalize();
    lock.lock();
    try {
      Entry old = entries.get(id);
      if (old != null) {
        if (workspace != null && !old.workspace().equals(ws)) {
          throw new IllegalStateException("instance '" + id + "' exists with workspace " + old.workspace()
              + "; delete it first to move it to " + ws);
        }
        return new Put(old, false);
      }
      if (!Files.isDirectory(ws)) {
        Files.createDirectories(ws, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      Entry e = new Entry(id, ws, Instant.now());
      entries.put(id, e);
      save();
      return new Put(e, true);
    } finally {
      lock.unlock();
    }
  }

  /** Forgets an instance and its watermarks (its workspace stays on disk); false when unknown. */
  boolean remove(String id) throws IOException {
    lock.lock();
    try {
      if (entries.remove(id) == null) {
        return false;
      }
      watermarks.remove(id);
      save();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Every registered instance, in registration order. */
  List<Entry> list() {
    lock.lock();
    try {
      return List.copyOf(entries.values());
    } finally {
      lock.unlock();
    }
  }

  /** The watermark of {@code channel} on a known instance, 0 when never set. */
  long watermark(String id, String channel) {
    lock.lock();
    try {
      Map<String, Long> m = watermarks.get(id);
      return m == null ? 0 : m.getOrDefault(channel, 0L);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Sets the watermark of {@code channel} on a known instance, as given (a client may move its
   * own cursor back), and saves it before returning.
   */
  void setWatermark(String id, String channel, long seq) throws IOException {
    if (seq < 0) {
      throw new IllegalArgumentException("seq must be >= 0 but was " + seq);
    }
    lock.lock();
    try {
      if (!entries.containsKey(id)) {
        throw notFound(id);
      }
      watermarks.computeIfAbsent(id, k -> new TreeMap<>()).put(channel, seq);
      save();
    } finally {
      lock.unlock();
    }
  }

  // Persistence: {"instances":[{"id","workspace","created_at","watermarks":{channel:seq}}]}

  private void save() throws IOException {
    if (file == null) {
      return;
    }
    ObjectNode root = Json.MAPPER.createObjectNode();
    ArrayNode list = root.putArray("instances");
    for (Entry e : entries.values()) {
      ObjectNode n = list.addObject();
      n.put("id", e.id());
      n.put("workspace", e.workspace().toString());
      n.put("created_at", e.createdAt().toString());
      ObjectNode w = n.putObject("watermarks");
      watermarks.getOrDefault(e.id(), Map.of()).forEach(w::put);
    }
    byte[] bytes = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    Path dir = file.toAbsolutePath().getParent();
    Path temp = Files.createTempFile(dir, ".instances-", ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.wrap(bytes));
        ch.force(true);
      }
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException ignored) {
      // some file systems cannot sync a directory; the rename is still atomic
    }
  }

  private void load() throws IOException {
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      throw new IOException("cannot read the instance registry " + file + ": " + e.getMessage(), e);
    }
    List<String> problems = new ArrayList<>();
    for (JsonNode n : root.path("instances")) {
      String id = n.path("id").asText("");
      if (!ID.matcher(id).matches() || !n.path("workspace").isTextual()) {
        problems.add(id);
        continue;
      }
      Instant created;
      try {
        created = Instant.parse(n.path("created_at").asText());
      } catch (RuntimeException e) {
        created = Instant.EPOCH;
      }
      entries.put(id, new Entry(id, Path.of(n.path("workspace").asText()), created));
      Map<String, Long> w = new TreeMap<>();
      n.path("watermarks").fields().forEachRemaining(f -> w.put(f.getKey(), f.getValue().asLong()));
      if (!w.isEmpty()) {
        watermarks.put(id, w);
      }
    }
    if (!problems.isEmpty()) {
      throw new IOException("the instance registry " + file + " has entries without a valid id or workspace: " + problems);
    }
  }
}
