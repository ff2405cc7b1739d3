package org.privet.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class SecureRandomSourceTest {
  private final RandomSource random = RandomSource.secure();

  @Test
  void nextLong_bounded_staysInRange() {
    for (long bound : new long[] {1, 2, 3, 7, 1000, (1L << 40) + 3, Long.MAX_VALUE}) {
      for (int i = 0; i < 1000; i++) {
        long v = random.nextLong(bound);
        assertTrue(v >= 0 && v < bound, "value " + v + " outside [0," + bound + ")");
      }
    }
  }

  @Test
  void nextLong_nonPositiveBound_throwsNamingBound() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> random.nextLong(0));
    assertTrue(e.getMessage().contains("bound"));
  }

  @Test
  void nextBigInteger_largeBound_staysInRange() {
    BigInteger bound = BigInteger.ONE.shiftLeft(100).add(BigInteger.valueOf(12345));
    for (int i = 0; i < 1000; i++) {
      BigInteger v = random.nextBigInteger(bound);
      assertTrue(v.signum() >= 0 && v.compareTo(bound) < 0);
    }
  }

  @Test
  void nextLong_manyDraws_bitsAreBalanced() {
    // Each of 64 bit positions over n = 100,000 draws: count ~ Bin(n, 1/2), sd = 158.
    // |count - n/2| > 6 sd has probability < 2e-9 per bit, < 1.3e-7 over 64 bits.
    int n = 100_000;
    int[] ones = new int[64];
    for (int i = 0; i < n; i++) {
      long v = random.nextLong();
      for (int b = 0; b < 64; b++) {
        ones[b] += (int) ((v >>> b) & 1L);
      }
    }
    for (int b = 0; b < 64; b++) {
      assertTrue(Math.abs(ones[b] - n / 2) < 6 * 158, "bit " + b + " count " + ones[b]);
    }
  }

  @Test
  void threads_getIndependentStreams() throws Exception {
    long[] fromOther = new long[1];
    Thread t = new Thread(() -> fromOther[0] = random.nextLong());
    t.start();
    t.join();
    assertNotEquals(fromOther[0], random.nextLong());
    assertEquals(0, random.nextLong(1));
  }
}
