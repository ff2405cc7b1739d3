package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.accounting.Budget;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * Confidence intervals cover the exact bounded values at (at least) their stated rate.
 *
 * <p>40 public groups with known exact values, 50 runs: 2,000 interval checks per output. The test
 * fails if a one-sided Clopper–Pearson upper bound (level 1 − 1e-4) on the coverage falls below the
 * stated level 0.9, so a correct implementation fails with probability ≤ 1e-4 per check (6 checks).
 * Power: the same check on intervals shrunk by 30% (what noise 30% larger than reported would
 * produce) must fail.
 */
class CoverageTest {
  private static final int GROUPS = 40;
  private static final int RUNS = 50;
  private static final double LEVEL = 0.9;
  private static DuckDbBackend db;
  private static final double[] EXACT_COUNT = new double[GROUPS];
  private static final double[] EXACT_SUM = new double[GROUPS];
  private static final double[] EXACT_MEAN = new double[GROUPS];

  @BeforeAll
  static void table() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    long uid = 0;
    for (int g = 0; g < GROUPS; g++) {
      int units = 20 + 3 * g;
      for (int u = 0; u < units; u++, uid++) {
        double x = (u * 37 % 11) + 0.25; // in [0.25, 10.25], clamped to [0, 10]
        rows.add(Arrays.asList(uid, "g" + g, x));
        rows.add(Arrays.asList(uid, "g" + g, x)); // second row: L∞ = 1 keeps one
        EXACT_COUNT[g] += 1;
        EXACT_SUM[g] += Math.min(x, 10);
      }
      EXACT_MEAN[g] = EXACT_SUM[g] / EXACT_COUNT[g];
    }
    TestTables.register(db, "t", rows);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  /** Coverage counts {count, sum, mean} and, for the power check, 30%-narrower intervals. */
  private static long[] coverage(NoiseKind noise, Budget budget, long seed) {
    List<Object> keys = new ArrayList<>();
    for (int g = 0; g < GROUPS; g++) {
      keys.add("g" + g);
    }
    Query q = Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(1)
        .groupBy("g").publicGroups(keys.toArray()).count("n").sum("s", "x", 0, 10)
        .mean("m", "x", 0, 10).budget(budget).noise(noise).build();
    Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(seed)).confidenceLevel(LEVEL).build();
    long[] hits = new long[6];
    for (int run = 0; run < RUNS; run++) {
      Result r = s.run(q);
      for (int g = 0; g < GROUPS; g++) {
        ResultRow row = r.rows().get(g);
        double[] exact = {EXACT_COUNT[g], EXACT_SUM[g], EXACT_MEAN[g]};
        String[] names = {"n", "s", "m"};
        for (int k = 0; k < 3; k++) {
          Estimate e = row.get(names[k]);
          if (e.lower() <= exact[k] + 1e-9 && exact[k] - 1e-9 <= e.upper()) {
            hits[k]++;
          }
          double mid = (e.lower() + e.upper()) / 2;
          double half = 0.7 * (e.upper() - e.lower()) / 2;
          if (k < 2 && mid - half <= exact[k] + 1e-9 && exact[k] - 1e-9 <= mid + half) {
            hits[3 + k]++;
          }
        }
      }
    }
    return hits;
  }

  private static boolean coversAtLevel(long hits) {
    return ClopperPearson.upperBound(hits, (long) GROUPS * RUNS, 1e-4) >= LEVEL;
  }

  @Test
  void run_laplaceIntervals_coverAtStatedRate() {
    long[] hits = coverage(NoiseKind.LAPLACE, Budget.pure(1.0), 31);
    for (int k = 0; k < 3; k++) {
      assertTrue(coversAtLevel(hits[k]), "output " + k + ": " + hits[k] + "/" + GROUPS * RUNS);
    }
    assertFalse(coversAtLevel(hits[3]) && coversAtLevel(hits[4]),
        "30%-narrower count/sum intervals must under-cover: " + hits[3] + ", " + hits[4]);
  }

  @Test
  void run_gaussianIntervals_coverAtStatedRate() {
    long[] hits = coverage(NoiseKind.GAUSSIAN, Budget.zcdp(0.5), 32);
    for (int k = 0; k < 3; k++) {
      assertTrue(coversAtLevel(hits[k]), "output " + k + ": " + hits[k] + "/" + GROUPS * RUNS);
    }
    assertFalse(coversAtLevel(hits[3]) && coversAtLevel(hits[4]),
        "30%-narrower count/sum intervals must under-cover: " + hits[3] + ", " + hits[4]);
  }
}
