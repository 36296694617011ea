package dev.tether.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.files.AtomicFiles;
import dev.tether.api.json.TetherJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A small JSON object of named counters in one file, such as the last confirmed update id or the
 * egress cursor, that survives crashes.
 *
 * <p>Durability: every {@link #put} writes the whole object to a temporary file, forces it to disk
 * and renames it over the old one (atomic on POSIX), so a crash leaves either the old or the new
 * state, never a torn one. A missing file reads as all zeros; a corrupt one is an
 * {@link IOException} naming the file (the bridge refuses to start rather than send everything
 * again). The file is written owner-only ({@code 0600}). Not thread-safe: each file has one owner thread.
 */
public final class StateFile {
  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());

  private final Path file;
  private final Map<String, Long> values = new LinkedHashMap<>();

  private StateFile(Path file) {
    this.file = file;
  }

  public static StateFile open(Path file) throws IOException {
    StateFile state = new StateFile(Objects.requireNonNull(file, "file"));
    if (Files.exists(file)) {
      JsonNode root;
      try {
        root = JSON.readTree(Files.readAllBytes(file));
      } catch (IOException e) {
        throw new IOException("the state file " + file + " is corrupt; restore it or delete it to start over"
            + " (which may send or forward some messages again)");
      }
      if (root == null || !root.isObject()) {
        throw new IOException("the state file " + file + " is not a JSON object; restore it or delete it to start over");
      }
      for (Map.Entry<String, JsonNode> e : root.properties()) {
        if (e.getValue().canConvertToLong()) {
          state.values.put(e.getKey(), e.getValue().asLong());
        }
      }
    }
    return state;
  }

  public Path file() {
    return file;
  }

  public long get(String name) {
    return values.getOrDefault(name, 0L);
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  /** Sets several values and writes them durably in one step. */
  public void put(Map<String, Long> changes) throws IOException {
    values.putAll(changes);
    ObjectNode root = JSON.createObjectNode();
    values.forEach(root::put);
    AtomicFiles.write(file, JSON.writeValueAsBytes(root));
  }

  public void put(String name, long value) throws IOException {
    put(Map.of(name, value));
  }
}
