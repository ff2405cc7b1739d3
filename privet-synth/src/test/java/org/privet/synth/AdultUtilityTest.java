package org.privet.synth;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.testing.SeededRandomSource;

/**
 * Utility on the discretized Adult table (48,842 rows, 14 columns) on the all-3-way workload (364
 * marginals), issue 14: every generator, averaged over seeds, must beat the uniform table (error
 * about 1.9) and the shuffled-columns table (each column permuted independently: exact 1-ways, no
 * correlation; about 0.34), both also averaged over two seeds and computed once for the class.
 * Thresholds are generous (the generators score 0.17-0.27 at ε = 1 in docs/benchmarks.md) but fail
 * for a broken generator: one that ignores its measurements sits at the uniform table's error, one
 * that keeps only 1-ways at the shuffled table's, and MWEM with the paper's small multiplicative
 * step (the first sessions' code) scored 1.1. The runs are deterministic (fixed seeds); the seeds of
 * one test run on two threads (each with its own source), so the class takes about a minute on two
 * idle cores.
 */
class AdultUtilityTest {
  private static Table real;
  private static Workload w;
  private static double shuffledError;
  private static double uniformError;
  private static double independentError;

  @BeforeAll
  static void baselines() throws IOException {
    real = AdultData.table();
    w = Workload.allKWay(real.domain(), 3);
    shuffledError = mean(new long[] {1100, 1101}, seed -> shuffled(real, seed));
    uniformError = mean(new long[] {1200, 1201}, seed -> uniform(real, seed));
    independentError = WorkloadError.evaluate(real, independent(real), w).average();
    assertTrue(independentError > 0.3 && independentError < 0.4, "independent baseline " + independentError);
  }

  /** The mean all-3-way error of the tables a generator makes from the given seeds, seeds in parallel. */
  private static double mean(long[] seeds, LongFunction<Table> generator) {
    return Arrays.stream(seeds).parallel()
        .mapToDouble(seed -> WorkloadError.evaluate(real, generator.apply(seed), w).average())
        .sum() / seeds.length;
  }

  private static void assertBeatsBaselines(String method, double error) {
    assertTrue(error < shuffledError, method + " " + error + " vs shuffled columns " + shuffledError);
    assertTrue(error < uniformError, method + " " + error + " vs uniform " + uniformError);
  }

  /** AIM at ε = 1 (δ = 1e-9), two seeds: about 0.17-0.19 in the benchmark; it must also beat the independent baseline. */
  @Test
  void synthesize_adultAtEpsilon1_aimBeatsBaselines() {
    double aim = mean(new long[] {101, 1101}, seed -> Synthesizer.builder().epsilon(1).delta(1e-9)
        .estimationIterations(50).randomSource(new SeededRandomSource(seed)).build().synthesize(real).synthetic());
    assertBeatsBaselines("AIM", aim);
    assertTrue(aim < independentError, "AIM " + aim + " vs independent " + independentError);
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
  void synthesize_adultAtEpsilonTenth_aimBelowIndependentBaselineOnAverage() {
    double aim = mean(new long[] {1301, 1302, 1303, 1304}, seed -> Synthesizer.builder().epsilon(0.1).delta(1e-9)
        .randomSource(new SeededRandomSource(seed)).build().synthesize(real).synthetic());
    assertTrue(aim < independentError, "AIM at eps 0.1 " + aim + " vs independent " + independentError);
  }

  /** MST at ε = 1, two seeds, 30 estimation iterations: about 0.22-0.24 in the benchmark. */
  @Test
  void synthesize_adultAtEpsilon1_mstBeatsUniformAndShuffledColumns() {
    double mst = mean(new long[] {201, 202}, seed -> Synthesizer.builder().method(Synthesizer.Method.MST).epsilon(1)
        .delta(1e-9).estimationIterations(30).randomSource(new SeededRandomSource(seed)).build().synthesize(real)
        .synthetic());
    assertBeatsBaselines("MST", mst);
  }

  /**
   * MWEM at ε = 1 (pure DP), 5 rounds (default 10), two seeds: the default scores about 0.24 in the
   * benchmark, the noisy 1-ways and one round about 0.30. The paper's uniform start and small
   * multiplicative step scored 1.1 here and would fail.
   */
  @Test
  void synthesize_adultAtEpsilon1_mwemBeatsUniformAndShuffledColumns() {
    double mwem = mean(new long[] {102, 103}, seed -> Synthesizer.builder().method(Synthesizer.Method.MWEM)
        .epsilon(1).rounds(5).randomSource(new SeededRandomSource(seed)).build().synthesize(real).synthetic());
    assertBeatsBaselines("MWEM", mwem);
  }

  /**
   * RAP at ε = 1 (Gaussian) with a small relaxed table (n′ = 100, 6 rounds of 4 marginals, 30 Adam
   * steps, one thread per run), two seeds. In the benchmark the default RAP scores about 0.24; a
   * generator that did not fit its measurements would sit near the uniform distribution's error.
   */
  @Test
  void synthesize_adultAtEpsilon1_rapBeatsUniformAndShuffledColumns() {
    double rap = mean(new long[] {501, 502}, seed -> Synthesizer.builder().method(Synthesizer.Method.RAP).epsilon(1)
        .delta(1e-9).rounds(6).roundSelections(4).syntheticRows(100).estimationIterations(30).threads(1)
        .randomSource(new SeededRandomSource(seed)).build().synthesize(real).synthetic());
    assertBeatsBaselines("RAP", rap);
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
    QueryWorkload queries = QueryWorkload.read(AdultData.repoRoot().resolve("data/adult-pgm/conditional-workload.txt"),
        real.domain());
    double[] rap = new double[2];
    double[] shuffled = new double[2];
    double[] uniform = new double[2];
    List<Table> syn = Arrays.stream(new long[] {801, 802}).parallel().mapToObj(seed -> Synthesizer.builder()
        .method(Synthesizer.Method.RAP).epsilon(1).delta(1e-9).queries(queries).rounds(4).syntheticRows(100)
        .estimationIterations(100).threads(1).randomSource(new SeededRandomSource(seed)).build().synthesize(real)
        .synthetic()).toList();
    for (int seed = 1; seed <= 2; seed++) {
      add(rap, queries.evaluate(real, syn.get(seed - 1)));
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
