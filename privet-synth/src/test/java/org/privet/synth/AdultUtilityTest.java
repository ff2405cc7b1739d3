package org.privet.synth;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.privet.testing.SeededRandomSource;

/**
 * Utility on the discretized Adult table (48,842 rows, 14 columns) at ε = 1, δ = 1e-9, on the
 * all-3-way workload (364 marginals): AIM must beat both MWEM (by at least a factor 2) and the
 * non-private independent-marginals baseline (each column drawn from its exact 1-way marginal,
 * error about 0.34), the shuffled-columns table and the uniform table; AIM averaged over two
 * seeds, MWEM one run. In the benchmark (docs/benchmarks.md) AIM scores about
 * 0.17-0.19 across seeds and MWEM about 1.0, so the margins are wide; the runs are deterministic.
 * MWEM is not held to the shuffled-columns baseline: at this ε it does not beat it (about 1.1 vs
 * 0.34 in the benchmark; see docs/benchmarks.md).
 */
class AdultUtilityTest {

  @Test
  void synthesize_adultAtEpsilon1_aimWellBelowMwemAndBaselines() throws IOException {
    Table real = AdultData.table();
    Workload w = Workload.allKWay(real.domain(), 3);
    double aimError = 0;
    double shuffledError = 0;
    double uniformError = 0;
    for (int seed = 0; seed < 2; seed++) {
      Table aim = Synthesizer.builder().epsilon(1).delta(1e-9).estimationIterations(50)
          .randomSource(new SeededRandomSource(101 + 1000 * seed)).build().synthesize(real).synthetic();
      aimError += WorkloadError.evaluate(real, aim, w).average() / 2;
      shuffledError += WorkloadError.evaluate(real, shuffled(real, 1100 + seed), w).average() / 2;
      uniformError += WorkloadError.evaluate(real, uniform(real, 1200 + seed), w).average() / 2;
    }
    Table mwem = Synthesizer.builder().method(Synthesizer.Method.MWEM).epsilon(1)
        .randomSource(new SeededRandomSource(102)).build().synthesize(real).synthetic();
    double mwemError = WorkloadError.evaluate(real, mwem, w).average();
    double independentError = WorkloadError.evaluate(real, independent(real), w).average();
    assertTrue(independentError > 0.3 && independentError < 0.4, "independent baseline " + independentError);
    assertTrue(aimError < independentError, "AIM " + aimError + " vs independent " + independentError);
    assertTrue(aimError < shuffledError, "AIM " + aimError + " vs shuffled columns " + shuffledError);
    assertTrue(aimError < uniformError, "AIM " + aimError + " vs uniform " + uniformError);
    assertTrue(aimError < 0.5 * mwemError, "AIM " + aimError + " vs MWEM " + mwemError);
  }

  /**
   * Issue 14 §3 at ε = 0.1: AIM averaged over four seeds beats the independent baseline (exact
   * 1-ways, about 0.345). In the benchmark AIM averages 0.332 over 14 runs with a run-to-run
   * standard deviation near 0.006, so the mean of four sits about four of its standard deviations
   * below the baseline (false-failure probability below 1e-4 for a random seed set; the seeds are
   * fixed). Before the small-ρ 1-way share (0.5 instead of 0.85) the mean was 0.343, and with the
   * paper's settings 0.40-0.42: either would be near or above the baseline.
   */
  @Test
  void synthesize_adultAtEpsilonTenth_aimBelowIndependentBaselineOnAverage() throws IOException {
    Table real = AdultData.table();
    Workload w = Workload.allKWay(real.domain(), 3);
    double aim = 0;
    for (int seed = 1; seed <= 4; seed++) {
      Table syn = Synthesizer.builder().epsilon(0.1).delta(1e-9).randomSource(new SeededRandomSource(1300 + seed))
          .build().synthesize(real).synthetic();
      aim += WorkloadError.evaluate(real, syn, w).average() / 4;
    }
    double independentError = WorkloadError.evaluate(real, independent(real), w).average();
    assertTrue(aim < independentError, "AIM at eps 0.1 " + aim + " vs independent " + independentError);
  }

  /**
   * MST at ε = 1 against two baselines, each averaged over two seeds: the uniform distribution
   * (error about 1.9) and the shuffled-columns table (each column permuted independently: exact
   * 1-ways, no correlation; about 0.34). MST scores about 0.22-0.24 in the benchmark, so a generator
   * that ignored its measurements or its tree would fail.
   */
  @Test
  void synthesize_adultAtEpsilon1_mstBeatsUniformAndShuffledColumns() throws IOException {
    Table real = AdultData.table();
    Workload w = Workload.allKWay(real.domain(), 3);
    double mst = 0;
    double shuffled = 0;
    double uniform = 0;
    for (int seed = 1; seed <= 2; seed++) {
      Table syn = Synthesizer.builder().method(Synthesizer.Method.MST).epsilon(1).delta(1e-9)
          .estimationIterations(30).randomSource(new SeededRandomSource(200 + seed)).build().synthesize(real)
          .synthetic();
      mst += WorkloadError.evaluate(real, syn, w).average() / 2;
      shuffled += WorkloadError.evaluate(real, shuffled(real, 300 + seed), w).average() / 2;
      uniform += WorkloadError.evaluate(real, uniform(real, 400 + seed), w).average() / 2;
    }
    assertTrue(mst < shuffled, "MST " + mst + " vs shuffled columns " + shuffled);
    assertTrue(mst < uniform, "MST " + mst + " vs uniform " + uniform);
  }

  /**
   * RAP at ε = 1 (Gaussian) with a small relaxed table (n′ = 100, 6 rounds of 4 marginals, 30 Adam
   * steps, one thread), averaged over two seeds, against the same two baselines. In the benchmark
   * the default RAP scores about 0.24; a generator that did not fit its measurements would sit near
   * the uniform distribution's error.
   */
  @Test
  void synthesize_adultAtEpsilon1_rapBeatsUniformAndShuffledColumns() throws IOException {
    Table real = AdultData.table();
    Workload w = Workload.allKWay(real.domain(), 3);
    double rap = 0;
    double shuffled = 0;
    double uniform = 0;
    for (int seed = 1; seed <= 2; seed++) {
      Table syn = Synthesizer.builder().method(Synthesizer.Method.RAP).epsilon(1).delta(1e-9).rounds(6)
          .roundSelections(4).syntheticRows(100).estimationIterations(30).threads(1)
          .randomSource(new SeededRandomSource(500 + seed)).build().synthesize(real).synthetic();
      rap += WorkloadError.evaluate(real, syn, w).average() / 2;
      shuffled += WorkloadError.evaluate(real, shuffled(real, 600 + seed), w).average() / 2;
      uniform += WorkloadError.evaluate(real, uniform(real, 700 + seed), w).average() / 2;
    }
    assertTrue(rap < shuffled, "RAP " + rap + " vs shuffled columns " + shuffled);
    assertTrue(rap < uniform, "RAP " + rap + " vs uniform " + uniform);
  }

  /**
   * RAP fitted to the conditional-query workload (data/adult-pgm/conditional-workload.txt: 60
   * conjunctive counts, 64 conditional averages) at ε = 1, small settings (4 rounds, 100 Adam
   * steps, n′ = 100, one thread), averaged over two seeds: both its counting-query and its
   * conditional-average mean errors must be below those of the shuffled-columns table (which keeps
   * the exact 1-ways: about 0.019 and 3.9 in the benchmark) and of the uniform table. In the
   * benchmark such a run scores about 0.004 and 2.4; a RAP that ignored its sum or count
   * measurements would sit at the shuffled baseline's errors or above.
   */
  @Test
  void synthesize_adultQueryFileAtEpsilon1_rapBeatsUniformAndShuffledOnCountsAndConditionalAverages()
      throws IOException {
    Table real = AdultData.table();
    QueryWorkload queries = QueryWorkload.read(AdultData.repoRoot().resolve("data/adult-pgm/conditional-workload.txt"),
        real.domain());
    double[] rap = new double[2];
    double[] shuffled = new double[2];
    double[] uniform = new double[2];
    for (int seed = 1; seed <= 2; seed++) {
      Table syn = Synthesizer.builder().method(Synthesizer.Method.RAP).epsilon(1).delta(1e-9).queries(queries)
          .rounds(4).syntheticRows(100).estimationIterations(100).threads(1)
          .randomSource(new SeededRandomSource(800 + seed)).build().synthesize(real).synthetic();
      add(rap, queries.evaluate(real, syn));
      add(shuffled, queries.evaluate(real, shuffled(real, 900 + seed)));
      add(uniform, queries.evaluate(real, uniform(real, 1000 + seed)));
    }
    for (int k = 0; k < 2; k++) {
      String what = k == 0 ? "counts" : "conditional averages";
      assertTrue(rap[k] < shuffled[k], what + ": RAP " + rap[k] + " vs shuffled columns " + shuffled[k]);
      assertTrue(rap[k] < uniform[k], what + ": RAP " + rap[k] + " vs uniform " + uniform[k]);
    }
  }

  private static void add(double[] acc, java.util.Map<QueryWorkload.Kind, QueryWorkload.ClassError> errors) {
    acc[0] += errors.get(QueryWorkload.Kind.COUNT).mean() / 2;
    acc[1] += errors.get(QueryWorkload.Kind.MEAN).mean() / 2;
  }

  /** Every column permuted independently (Fisher-Yates): exact 1-ways, correlations destroyed. */
  static Table shuffled(Table real, long seed) {
    var r = new SeededRandomSource(seed);
    int d = real.domain().size();
    int[][] cols = new int[d][];
    for (int a = 0; a < d; a++) {
      int[] c = real.column(a);
      for (int i = c.length - 1; i > 0; i--) {
        int j = (int) r.nextLong(i + 1);
        int t = c[i];
        c[i] = c[j];
        c[j] = t;
      }
      cols[a] = c;
    }
    return Table.trusted(real.domain(), cols);
  }

  /** Rows drawn uniformly from the whole domain. */
  static Table uniform(Table real, long seed) {
    var r = new SeededRandomSource(seed);
    int d = real.domain().size();
    int[][] cols = new int[d][real.rows()];
    for (int a = 0; a < d; a++) {
      for (int i = 0; i < real.rows(); i++) {
        cols[a][i] = (int) r.nextLong(real.domain().cardinality(a));
      }
    }
    return Table.trusted(real.domain(), cols);
  }

  /** Non-private baseline: every column drawn independently from its exact 1-way marginal. */
  static Table independent(Table real) {
    var r = new SeededRandomSource(103);
    int d = real.domain().size();
    int[][] cols = new int[d][];
    for (int a = 0; a < d; a++) {
      cols[a] = GraphicalModel.allocate(real.marginal(new int[] {a}), real.rows(), r);
    }
    return Table.trusted(real.domain(), cols);
  }
}
