package dev.tether.store;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import java.util.concurrent.atomic.AtomicReference;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck (stress mode, real threads) checks that an instance's {@link FrameCounts}, written under
 * the append's lock and read with no lock, look atomic: every interleaving of appends of two types,
 * queries that hit a gap, and reads of the counts gives results some sequential order gives. The
 * ring holds 2 frames so appends evict and queries from seq 0 report gaps within a scenario.
 */
@Param(name = "type", gen = IntGen.class, conf = "0:1")
public class FrameCountsLincheckTest {
  private static final String[] TYPES = {"user.message", "x.custom"};
  private static final long INVOCATION_TIMEOUT_MS = 180_000;

  private final AtomicReference<FrameCounts> counts = new AtomicReference<>();
  private final MemoryTetherStore store = MemoryTetherStore.create(
      StoreSettings.defaults().withRetention(Retention.builder().maxFrames(2).build()).withExecutor(Runnable::run)
          .withListener(new StoreListener() {
            @Override
            public StoreListener forInstance(String instance, FrameCounts c) {
              counts.set(c);
              return this;
            }
          }),
      (task, nanos) -> () -> { });

  public FrameCountsLincheckTest() {
    store.append("vm", frame(0)); // creates the state (and its counts) before the scenario
  }

  private static Frame frame(int type) {
    return Frame.builder(TYPES[type]).session(SessionKey.host("s")).payload(RawJson.of("{\"t\":" + type + "}")).build();
  }

  @Operation
  public long append(@Param(name = "type") int type) {
    return store.append("vm", frame(type));
  }

  @Operation
  public boolean queryFromStart() {
    return store.query("vm", FrameQuery.builder().afterSeq(0).build()).gap();
  }

  @Operation
  public long appended(@Param(name = "type") int type) {
    return counts.get().appendedFrames(FrameCounts.typeIndex(TYPES[type]));
  }

  @Operation
  public long appendedBytes(@Param(name = "type") int type) {
    return counts.get().appendedBytes(FrameCounts.typeIndex(TYPES[type]));
  }

  @Operation
  public long evicted() {
    return counts.get().evictedFrames();
  }

  @Operation
  public long gaps() {
    return counts.get().gapsServed();
  }

  @Test
  void stress() {
    new StressOptions().iterations(10).invocationsPerIteration(300)
        .threads(3).actorsPerThread(3).invocationTimeout$lincheck(INVOCATION_TIMEOUT_MS).check(FrameCountsLincheckTest.class);
  }
}
