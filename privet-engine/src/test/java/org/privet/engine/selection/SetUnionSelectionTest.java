package org.privet.engine.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxZcdp;
import org.privet.noise.DiscreteGaussian;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * Tests of the policy Gaussian set union ({@link SetUnionSelection}; Gopi et al. 2020).
 *
 * <p>Statistical checks use Clopper–Pearson intervals at level 1 − 1e-4 with fixed seeds; the
 * class makes 5 such checks, so its false-failure probability is below 5e-4. Power: the same
 * check rejects a threshold computed for noise 30% too small.
 */
public class SetUnionSelectionTest {
  private static final int DRAWS = 30_000;
  private static final double CONFIDENCE = 1 - 1e-4;

  private static double exactTail(long m, double sigmaSq) {
    return GaussianPartitionSelectionTest.exactTail(m, sigmaSq);
  }

  @Test
  void tailBound_isAnUpperBoundOfTheDiscreteGaussianTail() {
    for (double sigmaSq : new double[] {0.25, 4, 100, 1e4}) {
      for (double c : new double[] {0.5, 2, 4, 6}) {
        long m = Math.max(1, (long) Math.ceil(c * Math.sqrt(sigmaSq)));
        double exact = exactTail(m, sigmaSq);
        double bound = SetUnionSelection.tailBound(m, sigmaSq);
        assertTrue(bound >= exact, "σ²=" + sigmaSq + " m=" + m);
        if (sigmaSq >= 100 && c >= 2) {
          assertTrue(bound <= exact * 1.5, "tight for large σ: " + bound + " vs " + exact);
        }
      }
    }
    assertEquals(1, SetUnionSelection.tailBound(0, 4));
  }

  @Test
  void of_thresholdIsMinimalAndAtLeastThePapersClosedForm() {
    for (double rho : new double[] {0.005, 0.02, 0.5}) {
      for (double delta : new double[] {1e-3, 1e-5, 1e-9}) {
        for (int l0 : new int[] {1, 5, 20, 100}) {
          SetUnionSelection s = SetUnionSelection.of(rho, delta, l0);
          String where = "ρ=" + rho + " δ=" + delta + " L0=" + l0;
          // σ ≥ λ/√(2ρ), λ the weights' ℓ2 sensitivity (1 and the rounding terms).
          long[] s2 = s.sigmaSquaredRational();
          double sigmaSq = (double) s2[0] / s2[1];
          assertTrue(sigmaSq >= Math.pow(Math.scalb(s.sensitivity(), s.gridBits()), 2)
              / (2 * rho) * (1 - 1e-12), where);
          assertTrue(s.sensitivity() >= 1 && s.sensitivity() < 1.01, where);
          // R is the least threshold whose layer-cake bound is at most δ.
          long[] steps = SetUnionSelection.layerSteps(s.gridBits(), l0);
          long r = s.thresholdSteps();
          assertTrue(SetUnionSelection.layerTail(r, steps, sigmaSq) <= delta, where);
          assertTrue(r == 1 || SetUnionSelection.layerTail(r - 1, steps, sigmaSq) > delta, where);
          assertTrue(s.newGroupsReleaseBound() <= delta, where);
          // Against the paper's closed form max_t(1/√t + σΦ^{-1}((1−δ)^{1/t})) at the same σ:
          // never below it (a union over the sorted weights instead of equal weights), and within
          // 0.6σ.
          double paper = s.paperThreshold();
          assertTrue(s.threshold() >= paper - 1e-6 * s.sigma(), where + ": " + s.threshold()
              + " < " + paper);
          assertTrue(s.threshold() <= paper + 0.6 * s.sigma(), where + ": " + s.threshold()
              + " ≫ " + paper);
          assertTrue(s.cutoff() > s.threshold(), where);
          assertEquals(new ApproxZcdp(rho, delta), s.privacyLoss());
        }
      }
    }
  }

  @Test
  void of_badParameters_refusedNamingTheParameter() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SetUnionSelection.of(0, 1e-5, 5)).getMessage().contains("rho"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SetUnionSelection.of(0.1, 1, 5)).getMessage().contains("delta"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SetUnionSelection.of(0.1, 1e-5, 0)).getMessage().contains("maxGroupsContributed"));
  }

  /** Random units over {@code groups} groups, each with 1..l0 distinct groups (Zipf-ish). */
  private static List<int[]> randomUnits(SeededRandomSource r, int n, int groups, int l0) {
    List<int[]> units = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int size = (int) Math.min(groups, 1 + r.nextLong(l0));
      int[] u = new int[size];
      int m = 0;
      while (m < size) {
        // Skewed half of the time (popular groups near 0), uniform otherwise.
        int g = (int) (r.nextBoolean() ? r.nextLong(groups) * r.nextLong(groups) / groups
            : r.nextLong(groups));
        boolean dup = false;
        for (int j = 0; j < m; j++) {
          dup |= u[j] == g;
        }
        if (!dup) {
          u[m++] = g;
        }
      }
      units.add(u);
    }
    return units;
  }

  private static BigInteger normSq(long[] a, long[] b) {
    BigInteger s = BigInteger.ZERO;
    for (int i = 0; i < a.length; i++) {
      BigInteger d = BigInteger.valueOf(a[i] - b[i]);
      s = s.add(d.multiply(d));
    }
    return s;
  }

  @Test
  void weights_addingOneUnitAnywhere_movesTheWeightsByAtMostTheSensitivity() {
    SetUnionSelection s = SetUnionSelection.of(0.02, 1e-5, 5);
    BigInteger one = BigInteger.ONE.shiftLeft(s.weightBits());
    BigInteger bound = new java.math.BigDecimal(s.sensitivity())
        .multiply(new java.math.BigDecimal(one)).toBigInteger().pow(2);
    SeededRandomSource r = new SeededRandomSource(71);
    double worst = 0;
    for (int trial = 0; trial < 300; trial++) {
      int groups = 3 + (int) r.nextLong(30);
      List<int[]> base = randomUnits(r, 5 + (int) r.nextLong(200), groups, 5);
      int[] added = randomUnits(r, 1, groups + 5, 5).get(0); // may bring new groups
      List<int[]> with = new ArrayList<>(base);
      with.add((int) r.nextLong(base.size() + 1), added);
      long[] h = s.weights(base, groups + 5);
      long[] h2 = s.weights(with, groups + 5);
      BigInteger d = normSq(h, h2);
      assertTrue(d.compareTo(bound) <= 0, "trial " + trial);
      worst = Math.max(worst, Math.sqrt(d.doubleValue()) / one.doubleValue());
    }
    assertTrue(worst > 0.5, "the added unit moved the weights (worst " + worst + ")");
    // One unit's increment alone has norm ≤ 1 and reaches Γ when its gap is small.
    long[] single = s.weights(List.of(new int[] {0, 1, 2}), 3);
    BigInteger n = normSq(single, new long[3]);
    assertTrue(n.compareTo(one.pow(2)) <= 0);
    assertTrue(n.compareTo(one.pow(2).multiply(BigInteger.valueOf(999_999))
        .divide(BigInteger.valueOf(1_000_000))) >= 0, "uses its whole budget");
  }

  @Test
  void weights_manyUnitsOnOneGroup_stopAtTheCutoff() {
    SetUnionSelection s = SetUnionSelection.of(0.02, 1e-5, 3);
    List<int[]> units = new ArrayList<>();
    int n = (int) Math.ceil(s.cutoff()) + 5;
    for (int i = 0; i < n; i++) {
      units.add(new int[] {0});
    }
    long[] h = s.weights(units, 1);
    assertEquals(s.cutoff(), Math.scalb((double) h[0], -s.weightBits()), 1e-12);
  }

  /** Releases of a group only one unit has (D' = {u}, D = {}), over DRAWS runs. */
  private static long soloReleases(SetUnionSelection s, int l0, long seed) {
    SeededRandomSource r = new SeededRandomSource(seed);
    int[] groups = new int[l0];
    for (int i = 0; i < l0; i++) {
      groups[i] = i;
    }
    long hits = 0;
    for (int i = 0; i < DRAWS; i++) {
      List<int[]> units = new ArrayList<>();
      units.add(groups);
      boolean[] rel = s.select(units, l0, r);
      boolean any = false;
      for (boolean b : rel) {
        any |= b;
      }
      hits += any ? 1 : 0;
    }
    return hits;
  }

  @Test
  void select_groupsOfOneUnit_releasedAtMostDeltaOfTheTime() {
    // δ large enough to be measured; the unit is alone (L0 = 1) or spread over 4 new groups
    // (where its weight is 1/2 each: released far less often than the bound allows).
    for (int l0 : new int[] {1, 4}) {
      double delta = 0.1;
      SetUnionSelection s = SetUnionSelection.of(0.05, delta, l0);
      long hits = soloReleases(s, l0, 80 + l0);
      ClopperPearson.Interval ci = ClopperPearson.interval(hits, DRAWS, CONFIDENCE);
      assertTrue(ci.lower() <= delta, hits + "/" + DRAWS + " > δ (L0=" + l0 + ")");
      assertTrue(hits > 0, "measurable");
    }
  }

  @Test
  void check_thresholdForThirtyPercentLessNoise_isRejected() {
    double delta = 0.1;
    SetUnionSelection s = SetUnionSelection.of(0.05, delta, 1);
    long[] s2 = s.sigmaSquaredRational();
    double sigmaSq = (double) s2[0] / s2[1];
    long weak = SetUnionSelection.thresholdFor(s.gridBits(), 1, sigmaSq * 0.49, delta);
    assertTrue(weak < s.thresholdSteps());
    // A unit alone in its group has weight exactly 1 (2^k coarse steps): the release rule with
    // the true noise and each threshold.
    SeededRandomSource r = new SeededRandomSource(90);
    long one = 1L << s.gridBits();
    long calibrated = 0;
    long weakHits = 0;
    for (int i = 0; i < DRAWS; i++) {
      long z = DiscreteGaussian.sample(r, s2[0], s2[1]);
      calibrated += one + z >= s.thresholdSteps() ? 1 : 0;
      weakHits += one + z >= weak ? 1 : 0;
    }
    assertTrue(ClopperPearson.interval(calibrated, DRAWS, CONFIDENCE).lower() <= delta,
        "calibrated");
    assertFalse(ClopperPearson.interval(weakHits, DRAWS, CONFIDENCE).lower() <= delta,
        "a threshold for 30% too little noise must be detected: " + weakHits + "/" + DRAWS);
  }
}
