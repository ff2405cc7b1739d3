package org.privet.engine.selection;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.NoiseKind;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.TestTables;
import org.privet.engine.Thresholding;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.noise.DiscreteLaplace;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * Statistical tests of private partition selection.
 *
 * <p>Each check compares an empirical release frequency with the exact probability through a
 * two-sided Clopper–Pearson interval at level 1 − 1e-4; with at most 8 intervals per test the
 * false-failure probability is below 1e-3 per test.
 */
class PartitionSelectionTest {
  private static final int DRAWS = 40_000;
  private static final double CONFIDENCE = 1 - 1e-4;

  /** P[units + Z ≥ τ] for Z discrete Laplace of scale t: exact. */
  private static double releaseProbability(long units, long tau, double scale) {
    double q = Math.exp(-1 / scale);
    long m = tau - units; // need Z ≥ m
    if (m >= 1) {
      return Math.pow(q, m) / (1 + q);
    }
    return 1 - Math.pow(q, 1 - m) / (1 + q);
  }

  /** P[release] of {@link PartitionSelection#keep}: the threshold plus the boundary coin at τ − 1. */
  private static double keepProbability(PartitionSelection sel, long units) {
    long tau = sel.threshold();
    double q = Math.exp(-1 / sel.scale());
    long z = tau - 1 - units; // the noise value that lands exactly on τ − 1
    double atom = (1 - q) / (1 + q) * Math.pow(q, Math.abs(z));
    return releaseProbability(units, tau, sel.scale()) + sel.boundaryProbability() * atom;
  }

  /** True if the frequency of noisy ≥ τ over DRAWS matches the exact probability for every count. */
  private static boolean matchesExactReleaseProbabilities(PartitionSelection sel,
      LongSupplier noise) {
    long tau = sel.threshold();
    for (long units : new long[] {1, tau - 3, tau - 1, tau, tau + 2}) {
      if (units < 1) {
        continue;
      }
      long hits = 0;
      for (int i = 0; i < DRAWS; i++) {
        if (units + noise.getAsLong() >= tau) {
          hits++;
        }
      }
      double p = releaseProbability(units, tau, sel.scale());
      ClopperPearson.Interval ci = ClopperPearson.interval(hits, DRAWS, CONFIDENCE);
      if (p < ci.lower() || p > ci.upper()) {
        return false;
      }
    }
    return true;
  }

  @Test
  void threshold_singleUnitGroup_releasedWithProbabilityAtMostDeltaOverL0() {
    for (int l0 : new int[] {1, 3}) {
      for (double delta : new double[] {1e-2, 1e-6}) {
        PartitionSelection sel = PartitionSelection.laplace(0.8, delta, l0);
        double p = sel.singleUnitReleaseProbability();
        assertTrue(p <= delta / l0, "P = " + p + " > δ/L0 = " + delta / l0);
        // The boundary coin spends the rest of δ/L0 (up to the safety margins) and is a probability.
        assertTrue(p >= delta / l0 * (1 - 1e-6), "P = " + p + " leaves δ unspent");
        assertTrue(sel.boundaryProbability() >= 0 && sel.boundaryProbability() < 1);
        // Tight: one step lower would exceed δ/L0.
        double q = Math.exp(-1 / sel.scale());
        assertTrue(p / q > delta / l0, "threshold not minimal");
      }
    }
  }

  @Test
  void keep_releaseFrequencies_matchExactProbabilities() {
    PartitionSelection sel = PartitionSelection.laplace(1.0, 0.05, 1);
    SeededRandomSource r = new SeededRandomSource(11);
    // keep() is the code under test: measure it through its own decisions.
    long tau = sel.threshold();
    for (long units : new long[] {1, tau - 1, tau + 1}) {
      if (units < 1) {
        continue;
      }
      long hits = 0;
      for (int i = 0; i < DRAWS; i++) {
        if (sel.keep(units, r)) {
          hits++;
        }
      }
      double p = keepProbability(sel, units);
      ClopperPearson.Interval ci = ClopperPearson.interval(hits, DRAWS, CONFIDENCE);
      assertTrue(p >= ci.lower() && p <= ci.upper(),
          "units " + units + ": " + hits + "/" + DRAWS + " vs p = " + p);
    }
    assertFalse(sel.keep(0, r), "empty groups are never released");
  }

  @Test
  void check_noiseThirtyPercentTooSmall_isRejected() {
    PartitionSelection sel = PartitionSelection.laplace(1.0, 0.05, 1);
    double t = sel.scale();
    long den = 1L << 20;
    SeededRandomSource r = new SeededRandomSource(12);
    assertTrue(matchesExactReleaseProbabilities(sel,
        () -> DiscreteLaplace.sample(r, (long) Math.ceil(t * den), den)), "calibrated noise");
    assertFalse(matchesExactReleaseProbabilities(sel,
        () -> DiscreteLaplace.sample(r, (long) Math.ceil(0.7 * t * den), den)),
        "noise 30% too small must be detected");
  }

  @Test
  void run_groupWithOneContributor_releasedAtMostDeltaOfTheTime() {
    // End to end: a group whose only contributor is one unit, over many runs.
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      List<List<?>> rows = new ArrayList<>();
      for (long u = 0; u < 30; u++) {
        rows.add(Arrays.asList(u, "crowd", 1.0));
      }
      rows.add(Arrays.asList(999L, "solo", 1.0));
      rows.add(Arrays.asList(999L, "solo", 2.0));
      TestTables.register(db, "t", rows);
      double delta = 0.1;
      Query q = Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(5)
          .groupBy("g").count("n").noise(NoiseKind.LAPLACE).thresholding(Thresholding.LAPLACE)
          .epsilonDelta(2.0, delta).build();
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(13)).build();
      int runs = 500;
      long solo = 0;
      for (int i = 0; i < runs; i++) {
        if (s.run(q).rows().stream().anyMatch(row -> row.key().equals(List.of("solo")))) {
          solo++;
        }
      }
      // The selection gets ε = 1 and all of δ; its exact single-unit release probability:
      double p = PartitionSelection.laplace(1.0 * (1 - 1e-12), delta * (1 - 1e-12), 1)
          .singleUnitReleaseProbability();
      ClopperPearson.Interval ci = ClopperPearson.interval(solo, runs, CONFIDENCE);
      assertTrue(ci.lower() <= delta, "solo released " + solo + "/" + runs + " > δ");
      assertTrue(p >= ci.lower() && p <= ci.upper(), solo + "/" + runs + " vs p = " + p);
    }
  }
}
