package dev.tether.mcp;

import dev.tether.api.ErrorCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Argument reading and the poll limits, with properties over arbitrary input. */
class ArgsTest {
  private static final Set<String> ALLOWED = Set.of("instance", "after_seq", "types");

  @Test
  void anyUnknownArgumentName_isRejectedAndNamed() {
    qt().withExamples(500)
        .forAll(strings().basicLatinAlphabet().ofLengthBetween(0, 20))
        .assuming(name -> !ALLOWED.contains(name))
        .checkAssert(name -> {
          Map<String, Object> args = new HashMap<>();
          args.put("instance", "vm");
          args.put(name, 1);
          ToolError e = assertThrows(ToolError.class, () -> Args.of("t", args, ALLOWED));
          assertEquals(ErrorCode.INVALID_ARGUMENT, e.code());
          assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
        });
  }

  @Test
  void wholeNumbers_inRangeAreReadExactly_outsideAreRejected() {
    qt().withExamples(1000)
        .forAll(longs().all(), longs().between(-1000, 1000), longs().between(0, 1000))
        .checkAssert((value, min, width) -> {
          long max = min + width;
          Args args = Args.of("t", Map.of("after_seq", value), ALLOWED);
          if (value >= min && value <= max) {
            assertEquals(value, args.optLong("after_seq", min, max).orElseThrow());
          } else {
            ToolError e = assertThrows(ToolError.class, () -> args.optLong("after_seq", min, max));
            assertEquals(ErrorCode.INVALID_ARGUMENT, e.code());
          }
        });
  }

  @Test
  void integralFloats_areAccepted_fractionsAndStringsAreNot() {
    assertEquals(5L, Args.of("t", Map.of("after_seq", 5.0), ALLOWED).optLong("after_seq", 0, 10).orElseThrow());
    for (Object bad : List.of(5.5, "5", true, List.of(5), Map.of("n", 5), Double.NaN, 1e300)) {
      Args args = Args.of("t", Map.of("after_seq", bad), ALLOWED);
      ToolError e = assertThrows(ToolError.class, () -> args.optLong("after_seq", 0, Long.MAX_VALUE), bad.toString());
      assertTrue(e.getMessage().contains("after_seq"), e.getMessage());
    }
  }

  @Test
  void pollLimits_clampIntoTheirRanges() {
    qt().withExamples(1000).forAll(longs().all()).checkAssert(n -> {
      int limit = ReadRequest.clampLimit(n);
      assertTrue(limit >= 1 && limit <= 200);
      if (n >= 1 && n <= 200) {
        assertEquals(n, limit);
      }
      long wait = ReadRequest.clampWaitMs(n);
      assertTrue(wait >= 0 && wait <= 30_000);
      if (n >= 0 && n <= 30_000) {
        assertEquals(n, wait);
      }
    });
  }

  @Test
  void readRequest_rejectsValuesTheToolNeverPasses() {
    qt().withExamples(300).forAll(integers().all()).checkAssert(limit -> {
      if (limit < 1 || limit > 200) {
        assertThrows(IllegalArgumentException.class,
            () -> new ReadRequest("s", 0, limit, 0, List.of(), java.util.Optional.empty()));
      }
    });
    assertThrows(IllegalArgumentException.class,
        () -> new ReadRequest("s", -1, 50, 0, List.of(), java.util.Optional.empty()));
    assertThrows(IllegalArgumentException.class,
        () -> new ReadRequest("s", 0, 50, 30_001, List.of(), java.util.Optional.empty()));
  }
}
