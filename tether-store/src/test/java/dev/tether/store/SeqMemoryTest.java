package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.api.Frame;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeqMemoryTest {

  @Test
  void anyRememberSequence_neverReportsASeqBelowOneRemembered_andStaysBounded() {
    qt().withExamples(300).forAll(
        lists().of(integers().between(0, 40)).ofSizeBetween(1, 200),
        integers().between(1, 8))
        .checkAssert((ops, capacity) -> {
          SeqMemory memory = new SeqMemory(capacity);
          Map<String, Long> highest = new HashMap<>();
          long seq = 0;
          for (int op : ops) {
            String name = "i" + op;
            seq += 1 + op % 3;
            memory.remember(name, seq);
            highest.merge(name, seq, Math::max);
            assertTrue(memory.size() <= capacity, "at most " + capacity + " names one by one");
          }
          highest.forEach((name, last) ->
              assertTrue(memory.lastSeq(name) >= last, name + " would reuse a seq: " + memory.lastSeq(name) + " < " + last));
        });
  }

  @Test
  void unknownName_startsAtZero_untilNamesAreForgotten() {
    SeqMemory memory = new SeqMemory(2);
    assertEquals(0, memory.lastSeq("never"));
    memory.remember("a", 5);
    memory.remember("b", 9);
    assertEquals(0, memory.lastSeq("never"));
    memory.remember("c", 7); // the third name folds the map into one floor
    assertEquals(9, memory.lastSeq("never"));
    assertEquals(9, memory.lastSeq("a"));
    assertEquals(0, memory.size());
  }

  @Test
  void removedAndRecreatedInstance_continuesAfterItsOldSeq() {
    try (MemoryTetherStore store = MemoryTetherStore.create()) {
      Frame frame = Frame.of(SessionKey.host("s"), "m", Payload.Presence.of(Payload.Presence.IDLE));
      long first = store.append("vm-1", frame);
      assertTrue(store.remove("vm-1"));
      long again = store.append("vm-1", frame);
      assertTrue(again > first, "a re-created instance continues after its old seq: " + again + " > " + first);
    }
  }

  @Test
  void zeroCapacity_isRefused() {
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new SeqMemory(0));
  }
}
