package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.privet.random.RandomSource;

/**
 * Deterministic tests of {@link OptimalPartitionSelection}: the tabulated keep probabilities
 * against the paper's closed form, and the (ε, δ) constraints between consecutive counts (the
 * statistical audit on neighbouring tables is {@code OptimalPartitionSelectionAuditTest} in the
 * engine).
 */
class OptimalPartitionSelectionTest {
  private static final double[][] SETTINGS = {
      {1, 1e-5}, {0.1, 1e-5}, {0.5, 1e-3}, {2, 1e-9}, {0.05, 1e-8}, {5, 0.2}};

  /**
   * Whether π satisfies, for every n ≥ 1, π_n ≤ e^ε π_{n−1} + δ and 1 − π_{n−1} ≤ e^ε(1 − π_n) +
   * δ (the two non-trivial (ε, δ) constraints of a binary output), π non-decreasing and π_0 = 0,
   * in exact decimal arithmetic on the values as given; e^ε is taken 1e-12 relatively generous,
   * far below the 30% that the power check uses.
   */
  private static boolean satisfiesDp(LongFunction<BigDecimal> pi, double epsilon, double delta,
      long upTo) {
    BigDecimal e = new BigDecimal(Math.exp(epsilon) * (1 + 1e-12));
    BigDecimal d = new BigDecimal(delta);
    if (pi.apply(0).signum() != 0) {
      return false;
    }
    BigDecimal prev = BigDecimal.ZERO;
    for (long n = 1; n <= upTo; n++) {
      BigDecimal p = pi.apply(n);
      if (p.compareTo(prev) < 0 || p.compareTo(e.multiply(prev).add(d)) > 0
          || BigDecimal.ONE.subtract(prev)
              .compareTo(e.multiply(BigDecimal.ONE.subtract(p)).add(d)) > 0) {
        return false;
      }
      prev = p;
    }
    return true;
  }

  /** The mechanism's exact grid values. */
  private static LongFunction<BigDecimal> exact(OptimalPartitionSelection m) {
    BigDecimal one = new BigDecimal(1L << 62);
    return n -> new BigDecimal(m.keepNumerator(n)).divide(one);
  }

  /** The closed form at (ε, δ) as exact decimals of its doubles. */
  private static LongFunction<BigDecimal> closed(double epsilon, double delta) {
    return n -> new BigDecimal(OptimalPartitionSelection.closedForm(epsilon, delta, n));
  }

  @Test
  void keepProbability_everyCount_matchesClosedForm() {
    for (double[] s : SETTINGS) {
      OptimalPartitionSelection m = OptimalPartitionSelection.of(s[0], s[1], 1);
      for (long n = 0; n <= m.tableSize() + 5; n++) {
        double closed = OptimalPartitionSelection.closedForm(s[0], s[1], n);
        double used = m.keepProbability(n);
        assertTrue(Math.abs(used - closed) <= 1e-9 * Math.max(closed, s[1]),
            "ε=" + s[0] + " δ=" + s[1] + " n=" + n + ": " + used + " vs closed form " + closed);
      }
      // The table ends where the closed form reaches 1, and is 1 from there on.
      assertEquals(1.0, m.keepProbability(m.tableSize() - 1));
      assertTrue(OptimalPartitionSelection.closedForm(s[0], s[1], m.tableSize() - 2) < 1);
    }
  }

  @Test
  void keepProbability_isOnTheSafeSideOfEveryDpConstraint() {
    for (double[] s : SETTINGS) {
      OptimalPartitionSelection m = OptimalPartitionSelection.of(s[0], s[1], 1);
      assertTrue(satisfiesDp(exact(m), s[0], s[1], m.tableSize() + 3), "ε=" + s[0]);
      // π_1 ≤ δ exactly on the grid.
      BigDecimal deltaOnGrid = new BigDecimal(s[1]).multiply(new BigDecimal(1L << 62));
      assertTrue(new BigDecimal(m.keepNumerator(1)).compareTo(deltaOnGrid) <= 0);
    }
  }

  @Test
  void constraintCheck_thirtyPercentMoreEpsilonOrDelta_isRejected() {
    // Power: the same check rejects the closed form at 1.3ε or 1.3δ claimed as (ε, δ).
    for (double[] s : SETTINGS) {
      double eps = s[0];
      double delta = s[1];
      assertFalse(satisfiesDp(closed(1.3 * eps, delta), eps, delta, 100_000),
          "1.3ε must be rejected at ε=" + eps);
      assertFalse(satisfiesDp(closed(eps, 1.3 * delta), eps, delta, 100_000),
          "1.3δ must be rejected at ε=" + eps);
    }
  }

  @Test
  void of_maxPartitionsContributed_splitsEpsilonAndDelta() {
    OptimalPartitionSelection five = OptimalPartitionSelection.of(1.0, 1e-5, 5);
    for (long n = 0; n < five.tableSize() + 2; n++) {
      double closed = OptimalPartitionSelection.closedForm(1.0 / 5, 1e-5 / 5, n);
      assertTrue(Math.abs(five.keepProbability(n) - closed) <= 1e-9 * Math.max(closed, 2e-6));
    }
    assertTrue(satisfiesDp(exact(five), 0.2, 2e-6, five.tableSize()));
  }

  @Test
  void unitsForHalfKeep_matchesIssueFigures() {
    // ε = 0.1, δ = 1e-5: about 86 units for a 50% release (issue 17); ε = 1: 12.
    assertEquals(86, OptimalPartitionSelection.of(0.1, 1e-5, 1).unitsForKeepProbability(0.5), 1);
    assertEquals(12, OptimalPartitionSelection.of(1, 1e-5, 1).unitsForKeepProbability(0.5), 1);
  }

  @Test
  void keep_emptyAndCertainGroups_areDecidedWithoutChance() {
    OptimalPartitionSelection m = OptimalPartitionSelection.of(1, 1e-5, 1);
    RandomSource r = Seeded.source(5);
    for (int i = 0; i < 1000; i++) {
      assertFalse(m.keep(0, r));
      assertFalse(m.keep(-3, r));
      assertTrue(m.keep(m.tableSize() + 1_000_000L, r));
      assertTrue(m.keep(Long.MAX_VALUE, r));
    }
  }

  @Test
  void of_badParameters_areRejectedNamingTheParameter() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> OptimalPartitionSelection.of(0, 1e-5, 1)).getMessage().contains("epsilon"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> OptimalPartitionSelection.of(Double.NaN, 1e-5, 1)).getMessage().contains("epsilon"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> OptimalPartitionSelection.of(1, 0, 1)).getMessage().contains("delta"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> OptimalPartitionSelection.of(1, 1, 1)).getMessage().contains("delta"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> OptimalPartitionSelection.of(1, 1e-5, 0)).getMessage()
            .contains("maxPartitionsContributed"));
  }
}
