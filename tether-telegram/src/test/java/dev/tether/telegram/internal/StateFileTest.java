package dev.tether.telegram.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFileTest {
  @TempDir Path dir;

  @Test
  void values_surviveReopening_andAMissingFileReadsAsZero() throws Exception {
    Path file = dir.resolve("egress.json");
    StateFile state = StateFile.open(file);
    assertEquals(0, state.get("after_seq"));
    assertFalse(state.has("after_seq"));
    state.put(Map.of("after_seq", 42L, "parts_sent", 2L));
    state.put("after_seq", 43L);
    StateFile again = StateFile.open(file);
    assertEquals(43, again.get("after_seq"));
    assertEquals(2, again.get("parts_sent"));
    assertTrue(again.has("after_seq"));
    assertFalse(Files.exists(dir.resolve("egress.json.tmp")), "no temporary file is left behind");
  }

  @Test
  void corruptFile_isRefused_namingTheFileAndTheWayOut() throws Exception {
    Path file = dir.resolve("ingress.json");
    Files.writeString(file, "{\"confirmed_update_id\": 12");
    IOException e = assertThrows(IOException.class, () -> StateFile.open(file));
    assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("delete it to start over"), e.getMessage());
    Files.writeString(file, "[1,2]");
    assertThrows(IOException.class, () -> StateFile.open(file));
  }
}
