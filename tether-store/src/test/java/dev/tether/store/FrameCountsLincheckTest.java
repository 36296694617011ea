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
 * Lincheck (stress mode, real threads) checks that each of an instance's {@link FrameCounts}, written
 * under the append's lock and read with no lock, looks atomic: every interleaving of appends of two
 * types, queries that hit a gap, and reads of the counts gives results some sequential order gives.
 * The ring holds 2 frames so appends evict and queries from seq 0 report gaps within a scenario.
 *
 * <p>Each scenario reads counts that different operations write (appends by type and gaps; evictions
 * and gaps). Two counts one append writes (its type's frames and the frames it evicted) are not an
 * atomic pair, as {@link FrameCounts} says: a first version of this test read both and Lincheck
 * showed a reader seeing an append's eviction before its append.
 */
public class FrameCountsLincheckTest {
  private static final String[] TYPES = {"user.message", "x.custom"};
  private static final long INVOCATION_TIMEOUT_MS = 180_000;

  /** One instance whose state's counts are captured, with a frame in it before the scenario. */
  static final class Fixture {
    final AtomicReference<FrameCounts> counts = new AtomicReference<>();
    final MemoryTetherStore store = MemoryTetherStore.create(
        StoreSettings.defaults().withRetention(Retention.builder().maxFrames(2).build()).withExecutor(Runnable::run)
            .withListener(new StoreListener() {
              @Override
              public StoreListener forInstance(String instance, FrameCounts c) {
                counts.set(c);
                return this;
              }
            }),
        (task, nanos) -> () -> { });

    Fixture() {
      store.append("vm", frame(0));
    }

    long append(int type) {
      return store.append("vm", frame(type));
    }

    boolean queryFromStart() {
      return store.query("vm", FrameQuery.builder().afterSeq(0).build()).gap();
    }

    private static Frame frame(int type) {
      return Frame.builder(TYPES[type]).session(SessionKey.host("s")).payload(RawJson.of("{\"t\":" + type + "}")).build();
    }
  }

  /** Appended frames by type, and gaps. */
  @Param(name = "type", gen = IntGen.class, conf = "0:1")
  public static class AppendedAndGaps {
    private final Fixture f = new Fixture();

    @Operation
    public long append(@Param(name = "type") int type) {
      return f.append(type);
    }

    @Operation
    public boolean queryFromStart() {
      return f.queryFromStart();
    }

    @Operation
    public long appended(@Param(name = "type") int type) {
      return f.counts.get().appendedFrames(FrameCounts.typeIndex(TYPES[type]));
    }

    @Operation
    public long gaps() {
      return f.counts.get().gapsServed();
    }
  }

  /** Evicted bytes and gaps. */
  @Param(name = "type", gen = IntGen.class, conf = "0:1")
  public static class EvictedAndGaps {
    private final Fixture f = new Fixture();

    @Operation
    public long append(@Param(name = "type") int type) {
      return f.append(type);
    }

    @Operation
    public boolean queryFromStart() {
      return f.queryFromStart();
    }

    @Operation
    public long evictedBytes() {
      return f.counts.get().evictedBytes();
    }

    @Operation
    public long gaps() {
      return f.counts.get().gapsServed();
    }
  }

  private static StressOptions options() {
    return new StressOptions().iterations(8).invocationsPerIteration(200)
        .threads(3).actorsPerThread(3).invocationTimeout$lincheck(INVOCATION_TIMEOUT_MS);
  }

  @Test
  void appendedByTypeAndGaps_areLinearizable() {
    options().check(AppendedAndGaps.class);
  }

  @Test
  void evictedAndGaps_areLinearizable() {
    options().check(EvictedAndGaps.class);
  }
}
