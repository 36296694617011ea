package dev.tether.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import org.junit.jupiter.api.Test;

/** The documented rule from the heap to the server's limits (serve's too), and settings overriding it. */
class MemoryBudgetTest {
  private static final long MIB = 1L << 20;

  @Test
  void heap512m_storeHalfRingQuarterOfThat() {
    MemoryBudget b = MemoryBudget.forHeap(512 * MIB);
    assertEquals(256 * MIB, b.storeBytes());
    assertEquals(64 * MIB, b.ringBytes());
    assertEquals(1000, b.ringFrames());
    assertEquals(1024, b.maxInstances());
    assertEquals(128 * MIB, b.ingressBytes());
  }

  @Test
  void heap4g_ringCappedAt128MiB() {
    MemoryBudget b = MemoryBudget.forHeap(4096 * MIB);
    assertEquals(2048 * MIB, b.storeBytes());
    assertEquals(128 * MIB, b.ringBytes());
  }

  @Test
  void property_defaultsNeverExceedTheHeap() {
    qt().withExamples(1000).forAll(longs().between(16 * MIB, 1L << 40)).checkAssert(heap -> {
      MemoryBudget b = MemoryBudget.forHeap(heap);
      assertTrue(b.storeBytes() + b.ingressBytes() <= heap, b.toString());
      assertTrue(b.ringBytes() <= b.storeBytes() && b.ringBytes() <= 128 * MIB, b.toString());
    });
  }

  @Test
  void flagsOverride_andARingLargerThanTheStoreIsCut() {
    MemoryBudget b = MemoryBudget.resolve(512 * MIB, 100 * MIB, null, 50, 7);
    assertEquals(100 * MIB, b.storeBytes());
    assertEquals(25 * MIB, b.ringBytes(), "the ring default follows the given store budget");
    assertEquals(50, b.ringFrames());
    assertEquals(7, b.maxInstances());
    assertEquals(10 * MIB, MemoryBudget.resolve(512 * MIB, 10 * MIB, 64 * MIB, null, null).ringBytes());
  }

  @Test
  void describe_namesEveryFlag() {
    String line = MemoryBudget.forHeap(512 * MIB).describe(512 * MIB);
    for (String flag : new String[] {"--store-max-bytes", "--ring-max-bytes", "--ring-max-frames", "--max-instances", "256.0MiB"}) {
      assertTrue(line.contains(flag), line);
    }
  }
}
