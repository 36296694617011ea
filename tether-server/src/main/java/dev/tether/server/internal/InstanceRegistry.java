package dev.tether.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.api.files.AtomicFiles;
import dev.tether.server.SharedRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
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
 * watermark). When the registry has a file (the server's {@code --data-dir}), a registration or
 * deletion rewrites it whole: a temp file in the same directory, fsynced, renamed over the old
 * one, so a crash leaves the old or the new registry and never half of one. Watermarks are kept
 * beside it, one small file per instance ({@code watermarks/{id}.json}), so moving a cursor
 * rewrites only that instance's few channels. An instance id is also a directory name, so ids are
 * restricted to {@link #ID}; nothing else ever becomes a path.
 *
 * <p>Bounded: at most {@code maxInstances} instances (past it {@code TOO_MANY_INSTANCES}) and
 * {@value #MAX_WATERMARKS} watermark channels per instance, each named by {@link #CHANNEL}.
 * Workspaces are confined by {@link WorkspaceRoots}, and no two instances share one.
 *
 * <p>With a {@link SharedRegistry} (servers sharing one store), instances and watermarks live
 * there, so every server sees every registration and deletion: this registry then keeps no file
 * and no map of its own, and an instance's workspace on this server is the one it was registered
 * with when this server has that directory, else this server's default for the id.
 *
 * <p>With {@code autoCreate}, {@link #require} registers an unknown id with its default workspace
 * (the behaviour before the registry existed). Thread-safe.
 */
final class InstanceRegistry {
  /** Instance ids: a letter or digit, then letters, digits, dot, dash, underscore; at most 128. */
  static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  /** Watermark channel names: like a session channel, a letter or digit, then letters, digits, '.', '-', '_', ':'; at most 64. */
  static final Pattern CHANNEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,63}");
  /** Watermark channels one instance may keep. */
  static final int MAX_WATERMARKS = 64;
  /** Instances a registry holds unless told otherwise. */
  static final int DEFAULT_MAX_INSTANCES = 1024;

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
  }

  /** The outcome of {@link #put}. */
  record Put(Entry entry, boolean created) {}

  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Entry> entries = new LinkedHashMap<>();
  private final Map<String, Map<String, Long>> watermarks = new TreeMap<>();
  private final WorkspaceRoots roots;
  private final Path file; // null: in memory only
  private final boolean autoCreate;
  private final int maxInstances;
  private final SharedRegistry shared; // null: this server's own registry

  private InstanceRegistry(WorkspaceRoots roots, Path file, boolean autoCreate, int maxInstances, SharedRegistry shared) {
    this.roots = roots;
    this.file = shared == null ? file : null;
    this.autoCreate = autoCreate;
    this.maxInstances = maxInstances;
    this.shared = shared;
  }

  /**
   * A registry whose default workspaces live under {@code workspacesRoot/{id}}, loaded from and
   * saved to {@code file} when it is not null.
   *
   * @throws IOException when the file exists but cannot be read
   */
  static InstanceRegistry open(Path workspacesRoot, Path file, boolean autoCreate) throws IOException {
    return open(List.of(workspacesRoot), file, autoCreate, DEFAULT_MAX_INSTANCES);
  }

  /**
   * A registry whose workspaces live below {@code workspaceRoots} (defaults under the first, as
   * {@code {root}/{id}}), holding at most {@code maxInstances}, loaded from and saved to
   * {@code file} when it is not null.
   *
   * @throws IOException when the file exists but cannot be read
   */
  static InstanceRegistry open(List<Path> workspaceRoots, Path file, boolean autoCreate, int maxInstances) throws IOException {
    return open(workspaceRoots, file, autoCreate, maxInstances, null);
  }

  /** As above; with {@code shared}, instances and watermarks live there (and {@code file} is not used). */
  static InstanceRegistry open(List<Path> workspaceRoots, Path file, boolean autoCreate, int maxInstances, SharedRegistry shared)
      throws IOException {
    if (maxInstances < 1) {
      throw new IllegalArgumentException("maxInstances must be >= 1 but was " + maxInstances);
    }
    if (file != null && file.toAbsolutePath().getParent() != null && !Files.isDirectory(file.toAbsolutePath().getParent())) {
      Files.createDirectories(file.toAbsolutePath().getParent(),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    InstanceRegistry r = new InstanceRegistry(WorkspaceRoots.of(workspaceRoots), file, autoCreate, maxInstances, shared);
    if (shared == null && file != null && Files.exists(file)) {
      r.load();
    }
    return r;
  }

  /**
   * An in-memory registry that registers instances on first use, with workspaces under
   * {@code $TMPDIR/tether-workspaces-<pid>}: how servers started without a registry behave.
   */
  static InstanceRegistry autoCreating() {
    try {
      return open(List.of(Path.of(System.getProperty("java.io.tmpdir"), "tether-workspaces-" + ProcessHandle.current().pid())),
          null, true, DEFAULT_MAX_INSTANCES);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
    if (shared != null) {
      return shared.get(id).map(this::local);
    }
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
    if (shared != null) {
      Optional<SharedRegistry.Instance> existing = shared.get(id);
      if (existing.isPresent()) {
        Entry e = local(existing.get());
        if (workspace != null && !sameWorkspace(e.workspace(), workspace)) {
          throw new IllegalStateException("instance '" + id + "' exists with another workspace; delete it first to move it");
        }
        return new Put(e, false);
      }
      Path ws = workspace == null ? roots.defaultFor(id) : roots.confine(workspace);
      // The rules of one host, against what every host registered (as they recorded it).
      for (SharedRegistry.Instance other : shared.list()) {
        if (!other.id().equals(id) && other.workspace() != null) {
          Path theirs;
          try {
            theirs = Path.of(other.workspace()).normalize();
          } catch (InvalidPathException e) {
            continue; // not a path on this system: it cannot hold ws
          }
          requireApart(ws, theirs, other.id());
        }
      }
      SharedRegistry.Created c = shared.create(id, ws.toString());
      return new Put(local(c.instance()), c.created());
    }
    lock.lock();
    try {
      Entry old = entries.get(id);
      if (old != null) {
        if (workspace != null && !sameWorkspace(old.workspace(), workspace)) {
          throw new IllegalStateException("instance '" + id + "' exists with another workspace; delete it first to move it");
        }
        return new Put(old, false);
      }
      if (entries.size() >= maxInstances) {
        throw TetherException.of(ErrorCode.TOO_MANY_INSTANCES, "this server holds " + maxInstances
            + " instances, its limit (--max-instances); delete one first");
      }
      Path ws = workspace == null ? roots.defaultFor(id) : roots.confine(workspace);
      for (Entry other : entries.values()) {
        requireApart(ws, other.workspace(), other.id());
      }
      Entry e = new Entry(id, ws, Instant.now());
      entries.put(id, e);
      save();
      return new Put(e, true);
    } finally {
      lock.unlock();
    }
  }

  /** No sharing, no nesting: {@code ws} is neither {@code other}'s workspace nor inside or around it. */
  private static void requireApart(Path ws, Path other, String otherId) {
    if (ws.startsWith(other) || other.startsWith(ws)) {
      throw new IllegalStateException("that workspace is " + (ws.equals(other) ? "" : "inside or around ")
          + "the workspace of instance '" + otherId + "'; two instances never share one");
    }
  }

  /**
   * A shared instance on this server: its registered workspace when this server has that
   * directory (a plain one, inside a root), else this server's default for the id.
   */
  private Entry local(SharedRegistry.Instance i) {
    Path ws = null;
    if (i.workspace() != null) {
      try {
        Path p = Path.of(i.workspace());
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          ws = roots.confine(p);
        }
      } catch (IOException | RuntimeException e) {
        ws = null; // not usable here: the default below
      }
    }
    if (ws == null) {
      try {
        ws = roots.defaultFor(i.id());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new Entry(i.id(), ws, i.createdAt());
  }

  /** Whether a requested workspace names {@code existing} (as given, or as its root rebases it). */
  private boolean sameWorkspace(Path existing, Path requested) {
    if (!requested.isAbsolute()) {
      return false;
    }
    Path normal = requested.normalize();
    if (normal.equals(existing)) {
      return true;
    }
    try {
      return Files.isDirectory(normal) && normal.toRealPath().equals(existing.toRealPath());
    } catch (IOException e) {
      return false;
    }
  }

  /** Forgets an instance and its watermarks (its workspace stays on disk); false when unknown. */
  boolean remove(String id) throws IOException {
    if (shared != null) {
      return shared.delete(id);
    }
    lock.lock();
    try {
      if (entries.remove(id) == null) {
        return false;
      }
      watermarks.remove(id);
      save();
      if (file != null) {
        Files.deleteIfExists(watermarkFile(id));
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Every registered instance, in registration order. */
  List<Entry> list() {
    if (shared != null) {
      List<Entry> all = new ArrayList<>();
      for (SharedRegistry.Instance i : shared.list()) {
        all.add(local(i));
      }
      return List.copyOf(all);
    }
    lock.lock();
    try {
      return List.copyOf(entries.values());
    } finally {
      lock.unlock();
    }
  }

  /** The watermark of {@code channel} on a known instance, 0 when never set. */
  long watermark(String id, String channel) {
    if (shared != null) {
      return shared.watermark(id, channel);
    }
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
    requireChannel(channel);
    if (shared != null) {
      if (shared.get(id).isEmpty()) {
        throw notFound(id);
      }
      shared.setWatermark(id, channel, seq);
      return;
    }
    lock.lock();
    try {
      if (!entries.containsKey(id)) {
        throw notFound(id);
      }
      Map<String, Long> mine = watermarks.computeIfAbsent(id, k -> new TreeMap<>());
      if (!mine.containsKey(channel) && mine.size() >= MAX_WATERMARKS) {
        throw new IllegalArgumentException("instance '" + id + "' keeps " + MAX_WATERMARKS
            + " watermark channels, the limit; reuse one of them");
      }
      mine.put(channel, seq);
      saveWatermarks(id);
    } finally {
      lock.unlock();
    }
  }

  /** Checks a watermark channel name; the message says what a name may contain. */
  static String requireChannel(String channel) {
    if (channel == null || !CHANNEL.matcher(channel).matches()) {
      throw new IllegalArgumentException("channel must be 1 to 64 letters, digits, '.', '-', '_' or ':', starting with a letter or digit, but was '"
          + (channel == null ? "" : channel.length() > 64 ? channel.substring(0, 64) + "..." : channel).replaceAll("\\p{Cntrl}", "?") + "'");
    }
    return channel;
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
    }
    AtomicFiles.write(file, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
  }

  private Path watermarkFile(String id) {
    return file.toAbsolutePath().getParent().resolve("watermarks").resolve(id + ".json");
  }

  /** Rewrites one instance's watermark file: a few channels, not the whole registry. */
  private void saveWatermarks(String id) throws IOException {
    if (file == null) {
      return;
    }
    Path target = watermarkFile(id);
    if (!Files.isDirectory(target.getParent())) {
      Files.createDirectories(target.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    ObjectNode w = Json.MAPPER.createObjectNode();
    watermarks.getOrDefault(id, Map.of()).forEach(w::put);
    AtomicFiles.write(target, Json.MAPPER.writeValueAsBytes(w));
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
      // Registries written before watermarks had their own files kept them here.
      n.path("watermarks").fields().forEachRemaining(f -> w.put(f.getKey(), f.getValue().asLong()));
      Path own = watermarkFile(id);
      if (Files.exists(own)) {
        Json.MAPPER.readTree(own.toFile()).fields().forEachRemaining(f -> w.put(f.getKey(), f.getValue().asLong()));
      }
      if (!w.isEmpty()) {
        watermarks.put(id, w);
      }
    }
    if (!problems.isEmpty()) {
      throw new IOException("the instance registry " + file + " has entries without a valid id or workspace: " + problems);
    }
  }
}
