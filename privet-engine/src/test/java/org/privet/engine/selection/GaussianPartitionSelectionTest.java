package org.privet.engine.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxZcdp;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.TestTables;
import org.privet.engine.Thresholding;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.noise.DiscreteGaussian;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * Tests of Gaussian thresholding ({@link PartitionSelection#gaussian}).
 *
 * <p>Statistical checks use two-sided Clopper–Pearson intervals at level 1 − 1e-4 with fixed
 * seeds; each test makes at most 4 such checks, so its false-failure probability is below 4e-4.
 * Power: the same check rejects a threshold computed for noise 30% too small.
 */
class GaussianPartitionSelectionTest {
  private static final int DRAWS = 40_000;
  private static final double CONFIDENCE = 1 - 1e-4;

  /** P[Z ≥ m] for the discrete Gaussian N_Z(0, σ²), by direct summation over |z| ≤ 60σ + 60. */
  static double exactTail(long m, double sigmaSq) {
    double sigma = Math.sqrt(sigmaSq);
    long k = (long) (60 * sigma + 60);
    double total = 0;
    double tail = 0;
    for (long z = -k; z <= k; z++) {
      double f = Math.exp(-(double) z * z / (2 * sigmaSq));
      total += f;
      if (z >= m) {
        tail += f;
      }
    }
    return tail / total;
  }

  @Test
  void gaussianTailBound_isAnUpperBoundAndTight() {
    for (double sigmaSq : new double[] {0.25, 1, 9, 100, 1e4, 1e6}) {
      double sigma = Math.sqrt(sigmaSq);
      for (double k : new double[] {0.5, 2, 4, 6}) {
        long m = Math.max(1, (long) Math.ceil(k * sigma));
        double exact = exactTail(m, sigmaSq);
        double bound = PartitionSelection.gaussianTailBound(m, sigmaSq);
        assertTrue(bound >= exact, "σ²=" + sigmaSq + " m=" + m + ": " + bound + " < " + exact);
        assertTrue(bound <= exact * 1.001 + 1e-300,
            "σ²=" + sigmaSq + " m=" + m + ": " + bound + " ≫ " + exact);
      }
    }
  }

  @Test
  void gaussian_threshold_isMinimalWithTailAtMostDeltaOverL0() {
    for (int l0 : new int[] {1, 5, 50}) {
      for (double delta : new double[] {1e-2, 1e-6, 1e-10}) {
        PartitionSelection sel = PartitionSelection.gaussian(0.1, delta, l0);
        long m = sel.threshold() - 1;
        double s2 = sel.sigmaSquared();
        assertTrue(s2 >= l0 / (2 * 0.1), "σ² rounded up");
        assertTrue(l0 * exactTail(m, s2) <= delta, "L0·P[Z ≥ m] ≤ δ");
        assertTrue(sel.singleUnitReleaseProbability() * l0 <= delta);
        if (m > 1) {
          assertTrue(l0 * PartitionSelection.gaussianTailBound(m - 1, s2) > delta, "minimal");
        }
        assertEquals(new ApproxZcdp(0.1, delta), sel.privacyLoss());
      }
    }
  }

  /**
   * True unless the data show, at level 1 − 1e-4, that a one-unit group is released with
   * probability above δ/L0 (releases counted over DRAWS draws of {@code noise}).
   */
  private static boolean releaseProbabilityAtMost(double bound, long tau, LongSupplier noise) {
    long hits = 0;
    for (int i = 0; i < DRAWS; i++) {
      if (1 + noise.getAsLong() >= tau) {
        hits++;
      }
    }
    return ClopperPearson.interval(hits, DRAWS, CONFIDENCE).lower() <= bound;
  }

  @Test
  void keep_singleUnitGroup_releasedWithProbabilityAtMostDelta() {
    // σ = 10 (ρ = 1/200 with L0 = 1); δ large enough to be measured.
    double delta = 0.05;
    PartitionSelection sel = PartitionSelection.gaussian(0.005, delta, 1);
    SeededRandomSource r = new SeededRandomSource(21);
    long hits = 0;
    for (int i = 0; i < DRAWS; i++) {
      if (sel.keep(1, r)) {
        hits++;
      }
    }
    ClopperPearson.Interval ci = ClopperPearson.interval(hits, DRAWS, CONFIDENCE);
    assertTrue(ci.lower() <= delta, hits + "/" + DRAWS + " releases > δ");
    double exact = exactTail(sel.threshold() - 1, sel.sigmaSquared());
    assertTrue(exact >= ci.lower() && exact <= ci.upper(), hits + " vs p = " + exact);
    assertFalse(sel.keep(0, r), "empty groups are never released");
  }

  @Test
  void check_thresholdForThirtyPercentLessNoise_isRejected() {
    double delta = 0.05;
    for (int l0 : new int[] {1, 4}) {
      PartitionSelection sel = PartitionSelection.gaussian(0.005 * l0, delta, l0);
      long[] s2 = sel.sigmaSquaredRational();
      SeededRandomSource r = new SeededRandomSource(22 + l0);
      LongSupplier noise = () -> DiscreteGaussian.sample(r, s2[0], s2[1]);
      assertTrue(releaseProbabilityAtMost(delta / l0, sel.threshold(), noise), "calibrated");
      // A threshold computed as if σ were 30% smaller (ρ larger by 1/0.7²), with the true noise.
      PartitionSelection weak = PartitionSelection.gaussian(0.005 * l0 / 0.49, delta, l0);
      assertTrue(weak.threshold() < sel.threshold());
      assertFalse(releaseProbabilityAtMost(delta / l0, weak.threshold(), noise),
          "threshold for 30% too little noise must be detected (L0 = " + l0 + ")");
    }
  }

  @Test
  void run_groupWithOneContributorUnderRhoDelta_releasedAtMostDeltaOfTheTime() {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      List<List<?>> rows = new ArrayList<>();
      for (long u = 0; u < 60; u++) {
        rows.add(Arrays.asList(u, "crowd", 1.0));
      }
      rows.add(Arrays.asList(999L, "solo", 1.0));
      rows.add(Arrays.asList(999L, "solo", 2.0));
      TestTables.register(db, "t", rows);
      double delta = 0.1;
      double rho = 0.02;
      Query q = Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(5)
          .groupBy("g").count("n").thresholding(Thresholding.GAUSSIAN).rhoDelta(rho, delta)
          .build();
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(23)).build();
      assertTrue(s.explain(q).render().contains("GaussianThreshold"), s.explain(q).render());
      int runs = 600;
      long solo = 0;
      long crowd = 0;
      for (int i = 0; i < runs; i++) {
        Result res = s.run(q);
        if (res.rows().stream().anyMatch(row -> row.key().equals(List.of("solo")))) {
          solo++;
        }
        if (res.rows().stream().anyMatch(row -> row.key().equals(List.of("crowd")))) {
          crowd++;
        }
      }
      // Selection gets ρ/2 and all of δ (shares: selection + one count).
      double shrink = 1 - 1e-12;
      double p = PartitionSelection.gaussian(rho / 2 * shrink, delta * shrink, 1)
          .singleUnitReleaseProbability();
      ClopperPearson.Interval ci = ClopperPearson.interval(solo, runs, CONFIDENCE);
      assertTrue(ci.lower() <= delta, "solo released " + solo + "/" + runs + " > δ");
      assertTrue(p >= ci.lower() && p <= ci.upper() * 1.001, solo + "/" + runs + " vs p ≤ " + p);
      assertTrue(crowd > runs * 0.9, "a 60-unit group is usually released: " + crowd);
    }
  }
}
