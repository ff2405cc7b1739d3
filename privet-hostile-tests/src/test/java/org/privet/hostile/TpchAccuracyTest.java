package org.privet.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DpSql;
import org.privet.testing.SeededRandomSource;

/**
 * Held-out accuracy check of DP SQL over joins with no bound given (issue 25, "Done when": "a
 * held-out TPC-H-shaped check passes: accuracy against the oracle's truncation"). TPC-H at scale
 * factor 0.01 ({@link TpchShop.Variant#BASE}: 1,500 customers, 15,000 orders, 60,175 line
 * items; customer the privacy unit, nation public), three join counts that are <b>not</b> the
 * benchmark's R2T queries the default L∞ estimate was tuned on (docs/benchmarks.md), each
 * released 31 times at ε = 0.8 (R2T's setting) with fixed seeds through {@code DpSql} and {@code Session} on DuckDB.
 *
 * <p>The reference is computed here, from the data, without the engine: the per-customer
 * contributions c<sub>u</sub> by a plain {@code GROUP BY o_custkey} of the same join, the
 * oracle's best fixed threshold τ* = argmin over integers τ of the truncation bias Σ max(c<sub>u</sub>
 * − τ, 0) plus the median |noise| τ·ln 2/ε (the textbook Laplace mechanism for a count truncated
 * at τ per unit, released with the full ε), and the oracle's median relative error from 20,001
 * two-sided geometric releases of scale τ* / ε drawn here ({@code SplittableRandom}, seeded). The
 * check: the median of the engine's 31 relative errors is at most 3 × the oracle's.
 *
 * <p>False failure: measured with 201 releases per query (seeds 1,000–1,200, this commit's rule:
 * 20% of ε for the tree, the cell test), a single engine error exceeds 3 × the oracle's median
 * with frequency 0.21 ({@code returned}, {@code finished}) and 0.12 ({@code region}); the
 * engine's median of 31 exceeds it only if 16 of 31 do: P[Bin(31, 0.21) ≥ 16] &lt; 3·10<sup>−4</sup>
 * per query, &lt; 3·10<sup>−3</sup> at the 95% Clopper–Pearson upper bound of the frequency (0.27);
 * the seeds are fixed, so the run is deterministic. (The median ratios measured then: 1.44,
 * 1.47, 1.13.) Power: the same check, applied to the same queries with a fixed bound wrong by a
 * factor 8 either way ({@code max_rows_per_group} = 8·2^⌈log₂ τ*⌉, 8 times the oracle's noise;
 * 2^⌈log₂ τ*⌉ / 8, the bias of clipping most units), fails for every query (medians of 21
 * measured at 7.0–10.7× and 40–207× the oracle). The same rule at a 10% share measured 2.2× on
 * {@code returned} with 201 releases, p = 0.38: this check would have failed it about one time in
 * ten; it checks the engine's accuracy target, not small changes.
 */
class TpchAccuracyTest {
  private static final double EPSILON = 0.8;
  private static final int RUNS = 31;
  private static final int POWER_RUNS = 21;
  private static final int ORACLE_RUNS = 20_001;
  private static final double FACTOR = 3;

  private static DuckDbBackend db;
  private static DatasetCatalog catalog;

  @BeforeAll
  static void data(@org.junit.jupiter.api.io.TempDir Path dir) {
    db = TpchShop.duckdb(TpchShop.Variant.BASE, dir);
    catalog = HostileJoinsTest.catalog(db);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  /** A held-out query: its join and filter, and the unit column of its plain per-unit form. */
  private static String fromWhere(String name) {
    return switch (name) {
      // Returned line items of every customer (lineitem ⋈ orders ⋈ customer).
      case "returned" -> "FROM lineitem JOIN orders ON l_orderkey = o_orderkey JOIN customer ON"
          + " o_custkey = c_custkey WHERE l_returnflag = 'R'";
      // Finished orders (orders ⋈ customer).
      case "finished" -> "FROM orders JOIN customer ON o_custkey = c_custkey"
          + " WHERE o_orderstatus = 'F'";
      // Large line items of the customers of one region (a public table in the join).
      case "region" -> "FROM lineitem JOIN orders ON l_orderkey = o_orderkey JOIN customer ON"
          + " o_custkey = c_custkey JOIN nation ON c_nationkey = n_nationkey"
          + " WHERE n_regionkey = 2 AND l_quantity >= 25";
      default -> throw new IllegalArgumentException(name);
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"returned", "finished", "region"})
  void defaultBound_heldOutJoinCount_withinThreeTimesTheOraclesTruncation(String name)
      throws SQLException {
    long[] c = contributions(fromWhere(name));
    long truth = Arrays.stream(c).sum();
    long tau = oracleTau(c);
    double oracle = oracleMedianError(c, tau, truth);
    double engine = engineMedianError("", name, truth, RUNS);
    System.out.printf(Locale.ROOT, "%s: Q(I) %d, max c_u %d, τ* %d, oracle %.5f, engine %.5f"
        + " (%.2f×)%n", name, truth, Arrays.stream(c).max().orElse(0), tau, oracle, engine,
        engine / oracle);
    assertTrue(engine <= FACTOR * oracle, String.format(Locale.ROOT,
        "%s: engine's median relative error %.5f > %.0f × the oracle's %.5f", name, engine,
        FACTOR, oracle));
  }

  /** Power: the same check rejects a fixed bound 8 times too large and 8 times too small. */
  @ParameterizedTest
  @ValueSource(strings = {"returned", "finished", "region"})
  void fixedBoundWrongByEight_heldOutJoinCount_checkRejects(String name) throws SQLException {
    long[] c = contributions(fromWhere(name));
    long truth = Arrays.stream(c).sum();
    long tau = oracleTau(c);
    double oracle = oracleMedianError(c, tau, truth);
    long pow = Long.highestOneBit(tau) == tau ? tau : Long.highestOneBit(tau) << 1;
    for (long wrong : new long[] {pow * 8, Math.max(1, pow / 8)}) {
      double e = engineMedianError(", max_rows_per_group = " + wrong, name, truth, POWER_RUNS);
      System.out.printf(Locale.ROOT, "%s with max_rows_per_group = %d: %.5f (%.2f× the oracle)%n",
          name, wrong, e, e / oracle);
      assertFalse(e <= FACTOR * oracle, name + ": a bound of " + wrong + " passed the check");
    }
  }

  /** The median relative error of {@code runs} seeded releases of the query's COUNT(*). */
  private static double engineMedianError(String options, String name, long truth, int runs) {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + EPSILON + options
        + ") COUNT(*) AS n " + fromWhere(name);
    double[] rel = new double[runs];
    int[] linf = new int[runs];
    for (int i = 0; i < runs; i++) {
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(1000 + i)).build();
      Result r = s.run(DpSql.parse(sql, catalog).query());
      rel[i] = Math.abs(r.rows().get(0).get("n").value() - truth) / truth;
      linf[i] = r.estimatedMaxRowsPerGroup();
    }
    Arrays.sort(linf);
    if (options.isEmpty()) {
      System.out.printf(Locale.ROOT, "%s: the estimated L∞ min / median / max %d / %d / %d%n",
          name, linf[0], linf[runs / 2], linf[runs - 1]);
    }
    return median(rel);
  }

  /** Every customer's contribution c_u > 0 to the join, by plain SQL on the same tables. */
  private static long[] contributions(String fromWhere) throws SQLException {
    List<Long> out = new ArrayList<>();
    try (Statement s = db.trustedConnection().createStatement();
        ResultSet rs = s.executeQuery("SELECT o_custkey, COUNT(*) " + fromWhere
            + " GROUP BY o_custkey")) {
      while (rs.next()) {
        out.add(rs.getLong(2));
      }
    }
    assertTrue(out.size() > 100, "the query reaches " + out.size() + " customers");
    return out.stream().mapToLong(Long::longValue).toArray();
  }

  /** τ* = argmin over integers τ ≥ 1 of Σ max(c_u − τ, 0) + τ·ln 2/ε (all candidates tried). */
  static long oracleTau(long[] c) {
    long max = Arrays.stream(c).max().orElse(1);
    long best = 1;
    double bestCost = Double.POSITIVE_INFINITY;
    for (long tau = 1; tau <= max; tau++) {
      double bias = 0;
      for (long x : c) {
        bias += Math.max(0, x - tau);
      }
      double cost = bias + tau * Math.log(2) / EPSILON;
      if (cost < bestCost) {
        bestCost = cost;
        best = tau;
      }
    }
    return best;
  }

  /** The oracle's median relative error: the count truncated at τ, plus geometric(τ/ε) noise. */
  static double oracleMedianError(long[] c, long tau, long truth) {
    long truncated = 0;
    for (long x : c) {
      truncated += Math.min(x, tau);
    }
    double p = -Math.expm1(-EPSILON / tau); // success probability of each geometric
    SplittableRandom random = new SplittableRandom(25);
    double[] rel = new double[ORACLE_RUNS];
    for (int i = 0; i < ORACLE_RUNS; i++) {
      long noise = geometric(random, p) - geometric(random, p);
      rel[i] = Math.abs(truncated + noise - truth) / (double) truth;
    }
    return median(rel);
  }

  /** Failures before the first success, P[k] = (1 − p)^k·p, by inversion. */
  private static long geometric(SplittableRandom random, double p) {
    return (long) Math.floor(Math.log1p(-random.nextDouble()) / Math.log1p(-p));
  }

  private static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  @org.junit.jupiter.api.Test
  void oracleTau_smallExample_matchesHandComputation() {
    // c = {1, 1, 10}: τ = 1 costs 9 + 0.87, τ = 10 costs 0 + 8.66 (ln 2/0.8 = 0.866 per unit).
    assertEquals(10, oracleTau(new long[] {1, 1, 10}));
    // c = {1 × 100, 50}: τ ≥ 1 costs (50 − τ) + 0.866·τ, decreasing: τ = 50.
    long[] c = new long[101];
    Arrays.fill(c, 1);
    c[100] = 50;
    assertEquals(50, oracleTau(c));
  }
}
