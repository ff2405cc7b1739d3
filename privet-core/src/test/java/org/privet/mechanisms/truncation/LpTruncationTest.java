package org.privet.mechanisms.truncation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.junit.jupiter.api.Test;

/**
 * R2T's LP truncation ({@link LpTruncation}): hand-solved instances, the one-unit case against the
 * closed form ({@link UnitContributions}), random instances against an independent solver
 * (commons-math3's floating-point simplex), and the properties R2T's theorems use (stability τ on
 * neighbours that remove a unit with every result referencing it, under-estimation, exactness
 * above the downward sensitivity, Q(I, 0) = 0). Deterministic (fixed seeds).
 */
class LpTruncationTest {

  private static double exact(LpTruncation lp, long tau) {
    BigInteger[] v = lp.optimum(tau);
    return new java.math.BigDecimal(v[0]).divide(new java.math.BigDecimal(v[1]),
        java.math.MathContext.DECIMAL64).doubleValue();
  }

  @Test
  void triangle_handSolved_fractionalOptimumFloored() {
    // Edges ab, bc, ca with ψ = 1. τ = 1: u = 1/2 each (every unit at 1), optimum 3/2 → 1.
    // τ = 2: every edge at 1 (each unit at 2), optimum 3.
    LpTruncation lp = LpTruncation.of(new long[][] {{1, 2}, {2, 3}, {3, 1}}, new long[] {1, 1, 1});
    assertEquals(1.5, exact(lp, 1), 0);
    assertEquals(1, lp.evaluate(1));
    assertEquals(3, lp.evaluate(2));
    assertEquals(0, lp.evaluate(0));
  }

  @Test
  void star_handSolved_centreBindsAtTau() {
    // Centre 0 with 4 edges of ψ = 3: τ = 5 → the centre's constraint binds at 5; τ = 12 → all 12.
    LpTruncation lp = LpTruncation.of(new long[][] {{0, 1}, {0, 2}, {0, 3}, {0, 4}},
        new long[] {3, 3, 3, 3});
    assertEquals(5, lp.evaluate(5));
    assertEquals(12, lp.evaluate(12));
    assertEquals(12, lp.evaluate(1000));
  }

  @Test
  void oneUnitPerResult_equalsSumOfMinima() {
    SplittableRandom r = new SplittableRandom(251);
    for (int trial = 0; trial < 40; trial++) {
      int n = 1 + r.nextInt(30);
      long[][] units = new long[n][];
      long[] psi = new long[n];
      Map<Long, Long> perUnit = new HashMap<>();
      for (int q = 0; q < n; q++) {
        long w = r.nextInt(6);
        units[q] = new long[] {w};
        psi[q] = r.nextInt(5);
        perUnit.merge(w, psi[q], Long::sum);
      }
      LpTruncation lp = LpTruncation.of(units, psi);
      UnitContributions closed = UnitContributions.of(
          perUnit.values().stream().mapToLong(Long::longValue).toArray());
      for (long tau : new long[] {0, 1, 2, 4, 8, 16}) {
        assertEquals(closed.evaluate(tau), lp.evaluate(tau), "trial " + trial + " τ " + tau);
      }
    }
  }

  /** A random instance: n results over k units, each referencing 1 to 3 of them. */
  private static long[][] randomUnits(SplittableRandom r, int n, int k) {
    long[][] units = new long[n][];
    for (int q = 0; q < n; q++) {
      int m = 1 + r.nextInt(3);
      units[q] = new long[m];
      for (int i = 0; i < m; i++) {
        units[q][i] = r.nextInt(k);
      }
    }
    return units;
  }

  private static long[] randomPsi(SplittableRandom r, int n) {
    long[] psi = new long[n];
    for (int q = 0; q < n; q++) {
      psi[q] = r.nextInt(6);
    }
    return psi;
  }

  @Test
  void randomInstances_matchAnIndependentSimplex() {
    SplittableRandom r = new SplittableRandom(252);
    for (int trial = 0; trial < 60; trial++) {
      int n = 1 + r.nextInt(20);
      int k = 1 + r.nextInt(8);
      long[][] units = randomUnits(r, n, k);
      long[] psi = randomPsi(r, n);
      LpTruncation lp = LpTruncation.of(units, psi);
      long tau = 1 + r.nextInt(10);
      // The same LP for commons-math3: variables u_q, one row per unit, one per result.
      List<LinearConstraint> rows = new ArrayList<>();
      for (int w = 0; w < k; w++) {
        double[] a = new double[n];
        for (int q = 0; q < n; q++) {
          for (long x : units[q]) {
            if (x == w) {
              a[q] = 1; // repeats of a unit in one result count once
            }
          }
        }
        rows.add(new LinearConstraint(a, Relationship.LEQ, tau));
      }
      for (int q = 0; q < n; q++) {
        double[] a = new double[n];
        a[q] = 1;
        rows.add(new LinearConstraint(a, Relationship.LEQ, psi[q]));
      }
      double[] ones = new double[n];
      java.util.Arrays.fill(ones, 1);
      PointValuePair p = new SimplexSolver().optimize(new MaxIter(10_000),
          new LinearObjectiveFunction(ones, 0), new LinearConstraintSet(rows), GoalType.MAXIMIZE,
          new NonNegativeConstraint(true));
      assertEquals(p.getValue(), exact(lp, tau), 1e-6, "trial " + trial);
    }
  }

  @Test
  void randomNeighbours_removingAUnit_movesAtMostTau_andTheOtherProperties() {
    SplittableRandom r = new SplittableRandom(253);
    for (int trial = 0; trial < 60; trial++) {
      int n = 1 + r.nextInt(16);
      int k = 1 + r.nextInt(6);
      long[][] units = randomUnits(r, n, k);
      long[] psi = randomPsi(r, n);
      long victim = r.nextInt(k);
      List<long[]> keptUnits = new ArrayList<>();
      List<Long> keptPsi = new ArrayList<>();
      long total = 0;
      Map<Long, Long> load = new HashMap<>();
      for (int q = 0; q < n; q++) {
        total += psi[q];
        for (long w : java.util.Arrays.stream(units[q]).distinct().toArray()) {
          load.merge(w, psi[q], Long::sum);
        }
        if (java.util.Arrays.stream(units[q]).noneMatch(w -> w == victim)) {
          keptUnits.add(units[q]);
          keptPsi.add(psi[q]);
        }
      }
      LpTruncation d = LpTruncation.of(units, psi);
      LpTruncation dPrime = LpTruncation.of(keptUnits.toArray(long[][]::new),
          keptPsi.stream().mapToLong(Long::longValue).toArray());
      long ds = load.values().stream().mapToLong(Long::longValue).max().orElse(0);
      for (long tau : new long[] {0, 1, 2, 3, 5, 8, 13}) {
        long diff = d.evaluate(tau) - dPrime.evaluate(tau);
        assertTrue(diff >= 0 && diff <= tau, "trial " + trial + " τ " + tau + ": " + diff);
        assertTrue(d.evaluate(tau) <= total);
      }
      assertEquals(total, d.evaluate(Math.max(ds, 1)), "exact once τ ≥ DS");
      assertEquals(0, d.evaluate(0));
    }
  }

  @Test
  void r2t_onTheLpTruncation_releasesTheBestThresholdMinusItsBias() {
    // Triangle, GS = 4: Q(I, 2) = Q(I, 4) = 3; at ε = 10^6 every noise is 0 (but with
    // probability < 10^-100) and each bias ⌈t·ln(L/β)⌉ is 1: the release is 3 − 1 at τ = 2.
    LpTruncation lp = LpTruncation.of(new long[][] {{1, 2}, {2, 3}, {3, 1}}, new long[] {1, 1, 1});
    R2TMechanism m = R2TMechanism.builder().epsilon(1e6).globalSensitivity(4).beta(0.01)
        .randomSource(new SplittableRandom(254)::nextLong).build();
    TruncationResult t = m.release(lp);
    assertEquals(2, t.value());
    assertEquals(2, t.tau());
  }

  @Test
  void of_badInput_refusedNamingTheParameter() {
    assertThrows(IllegalArgumentException.class,
        () -> LpTruncation.of(new long[][] {{1}}, new long[] {-1}));
    assertThrows(IllegalArgumentException.class,
        () -> LpTruncation.of(new long[][] {{}}, new long[] {1}));
    assertThrows(IllegalArgumentException.class,
        () -> LpTruncation.of(new long[][] {{1}}, new long[] {1, 2}));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LpTruncation.of(new long[LpTruncation.MAX_RESULTS + 1][], new long[
            LpTruncation.MAX_RESULTS + 1]));
    assertTrue(e.getMessage().startsWith("unitsPerResult"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> LpTruncation.of(new long[][] {{1}}, new long[] {1}).evaluate(-1));
  }
}
