package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ByteBudgetTest {
  private static final int MAX_FRAME = 32 << 20;

  @Test
  void declaredBody_reservesItsLengthPlusTheFirstBuffer_notTwiceItsLength() {
    assertEquals((27L << 20) + (1 << 20), BodyReader.reservation(27L << 20, MAX_FRAME));
  }

  @Test
  void smallDeclaredBody_reservesTwiceItsLength_withA1KiBFloor() {
    assertEquals(2 * 4096, BodyReader.reservation(4096, MAX_FRAME));
    assertEquals(2 * 1024, BodyReader.reservation(10, MAX_FRAME));
  }

  @Test
  void chunkedBody_reservesTwiceTheFrameLimit_becauseItsBufferDoubles() {
    assertEquals(2L * MAX_FRAME, BodyReader.reservation(-1, MAX_FRAME));
  }

  @Test
  void declaredLengthOverTheLimit_costsNoMoreThanTheLimitAllows() {
    assertEquals((long) MAX_FRAME + (1 << 20), BodyReader.reservation(Long.MAX_VALUE / 2, MAX_FRAME));
  }

  @Test
  void reservationsAddUp_andAreReleased() {
    ByteBudget budget = new ByteBudget(10_000);
    assertTrue(budget.tryReserve(6_000));
    assertFalse(budget.tryReserve(6_000), "over the budget while the first is held");
    budget.release(6_000);
    assertTrue(budget.tryReserve(6_000));
    assertEquals(6_000, budget.reserved());
  }
}
