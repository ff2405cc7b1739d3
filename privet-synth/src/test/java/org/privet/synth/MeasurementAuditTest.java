package org.privet.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.junit.jupiter.api.Test;
import org.privet.random.RandomSource;
import org.privet.testing.PrivacyAudit;
import org.privet.testing.SeededRandomSource;

/**
 * Privacy audits of RAP's and MST's measurements on neighbouring tables D and D′ = D plus the record
 * (1, 1), with power against 30% too little noise (the team rule). The end-to-end audits in
 * {@link SynthesisAuditTest} look only at the synthetic table, whose sampling hides most of the
 * leak, so they can detect gross failures only; here the generators run unchanged and the test
 * reads every noisy measurement they release (the DP outputs of the privacy proof, everything else
 * being post-processing, docs/proofs/synthetic-data.md) through their package-private observer.
 *
 * <ul>
 *   <li><b>RAP, discrete Laplace (pure ε).</b> With a one-count query file the pool (the count and
 *       the 1-ways of x and y) is measured whole, so the three measurements share 0.98·ε. The event
 *       "every measured cell of the record is at least its count on D plus one" has likelihood
 *       ratio exactly e<sup>0.98ε</sup> on D′ vs D (each discrete Laplace factor contributes
 *       e<sup>ε<sub>i</sub></sup>), so it is nearly tight. Clopper–Pearson lower bound at 95%
 *       ({@link PrivacyAudit}): false-failure probability at most 5% (far less, since the event's
 *       ratio is e<sup>0.98ε</sup>, not e<sup>ε</sup>: about 0.3% in simulation). Power: RAP run with
 *       1.3·ε (noise scale / 1.3) is rejected; simulated power of this design 0.99 at 3,000 trials.
 *   <li><b>MST and RAP, discrete Gaussian (zCDP).</b> An (ε, δ) event audit of a Gaussian needs tail
 *       events too rare for a few thousand runs, so the audit estimates the Gaussian-DP parameter
 *       μ of the measurements: the statistic S = Σ<sub>i</sub> (y<sub>i</sub> − M<sub>i</sub>(D))/σ<sub>i</sub>²
 *       over the record's cell of every measurement is a sum of independent discrete Gaussians,
 *       shifted on D′ by Σ 1/σ<sub>i</sub>² (true σ), so its standardized shift is at most
 *       √(2ρ<sub>m</sub>) for measurements of ρ<sub>m</sub>-zCDP (with any weights). The audit fails
 *       if the one-sided lower confidence bound (3.09 standard errors: false-failure probability
 *       0.1% under the normal approximation) of the standardized shift exceeds √(2ρ<sub>m</sub>),
 *       ρ<sub>m</sub> the measurements' share of the proof (MST: 2ρ/3; RAP measuring its pool whole,
 *       with a query file or with a marginal workload whose 1-ways come first: all of ρ). Power: noise σ/1.3 (ρ·1.69) puts the shift 0.3·√(2ρ<sub>m</sub>) above the
 *       claim, more than five standard errors at 1,000 runs per table.
 * </ul>
 */
class MeasurementAuditTest {
  private static final Domain DOM = Domain.of(List.of(Attribute.coded("x", 2), Attribute.coded("y", 2)));
  private static final int[] RECORD = {1, 1};

  /** D: {@code perCell} rows in each of the four cells; D′ adds (1, 1). */
  private static Table table(int perCell, boolean withRecord) {
    int n = 4 * perCell + (withRecord ? 1 : 0);
    int[] x = new int[n];
    int[] y = new int[n];
    for (int i = 0; i < 4 * perCell; i++) {
      x[i] = (i / perCell) / 2;
      y[i] = (i / perCell) % 2;
    }
    if (withRecord) {
      x[n - 1] = RECORD[0];
      y[n - 1] = RECORD[1];
    }
    return Table.of(DOM, new int[][] {x, y});
  }

  /** The row-major index of the record's values on attrs. */
  private static int recordIndex(int[] attrs) {
    int c = 0;
    for (int a : attrs) {
      c = c * DOM.cardinality(a) + RECORD[a];
    }
    return c;
  }

  /** The record's cell in a measurement (a marginal, or a 1-cell count: the row count or the conjunction). */
  private static int cell(Measurement m) {
    return m.y().length == 1 ? 0 : recordIndex(m.attrs());
  }

  /** The exact value on D of the record's cell of a measurement like m. */
  private static double truth(Table d, Measurement m) {
    return m.attrs().length == 0 ? d.rows() : d.marginal(m.attrs())[recordIndex(m.attrs())];
  }

  /** The measurements of one run of a generator (its observer), on table t. */
  private static List<Measurement> measurements(BiFunction<Table, List<Measurement>, Object> run, Table t) {
    var out = new ArrayList<Measurement>();
    run.apply(t, out);
    return out;
  }

  private static final QueryWorkload ONE_COUNT =
      new QueryWorkload(List.of(QueryWorkload.parse("count x=1 y=1", DOM, "test")));

  private static RapGenerator rap(RapGenerator.Noise noise, double budget, RandomSource r, List<Measurement> sink) {
    return new RapGenerator(noise, budget, null, ONE_COUNT, r, s -> { }, 2, 0, 2, 10, 2000, 1).observe(sink::add);
  }

  /** The Laplace event audit's lower bound on ε for RAP run with {@code actual} ε. */
  private static double rapLaplaceLowerBound(double actual, int trials) {
    var r = new SeededRandomSource(31);
    Table d = table(0, false);
    Table dPrime = Table.of(DOM, new int[][] {{1}, {1}});
    long hitsD = 0;
    long hitsN = 0;
    for (int i = 0; i < trials; i++) {
      for (Table t : new Table[] {d, dPrime}) {
        var sink = new ArrayList<Measurement>();
        SynthesisResult res = rap(RapGenerator.Noise.LAPLACE, actual, r, sink).run(t, new PureDp(actual));
        assertEquals(4, sink.size(), "row count, x, y and the count, measured whole");
        assertEquals(4, res.events().size(), "no selection");
        boolean all = true;
        for (Measurement m : sink.subList(1, 4)) {
          all &= m.y()[cell(m)] >= truth(d, m) + 1;
        }
        hitsD += t == d && all ? 1 : 0;
        hitsN += t == dPrime && all ? 1 : 0;
      }
    }
    return PrivacyAudit.epsilonLowerBound(hitsN, trials, hitsD, trials, 0.95, 0);
  }

  @Test
  void rapLaplace_measurementsOnNeighbours_epsilonLowerBoundWithinClaim() {
    double lb = rapLaplaceLowerBound(2.5, 3000);
    assertTrue(lb <= 2.5, "RAP (Laplace) measurements: empirical epsilon " + lb + " exceeds the claim 2.5");
  }

  @Test
  void rapLaplace_thirtyPercentTooLittleNoise_exceedsClaim() {
    double lb = rapLaplaceLowerBound(2.5 * 1.3, 3000);
    assertTrue(lb > 2.5, "the audit cannot detect noise 1/1.3 of the claim's: lower bound " + lb);
  }

  /**
   * The lower confidence bound (3.09 standard errors) of the standardized shift of S between D′ and
   * D over {@code runs} runs each.
   */
  private static double muLowerBound(BiFunction<Table, List<Measurement>, Object> run, Table d, Table dPrime,
      int runs) {
    double[][] s = new double[2][runs];
    for (int i = 0; i < runs; i++) {
      for (int k = 0; k < 2; k++) {
        double stat = 0;
        for (Measurement m : measurements(run, k == 0 ? d : dPrime)) {
          stat += (m.y()[cell(m)] - truth(d, m)) / (m.sigma() * m.sigma());
        }
        s[k][i] = stat;
      }
    }
    double[] mean = new double[2];
    double var = 0;
    for (int k = 0; k < 2; k++) {
      for (double v : s[k]) {
        mean[k] += v / runs;
      }
      for (double v : s[k]) {
        var += (v - mean[k]) * (v - mean[k]) / (2.0 * runs - 2);
      }
    }
    double mu = (mean[1] - mean[0]) / Math.sqrt(var);
    double se = Math.sqrt((2 + mu * mu / 4) / runs);
    return mu - 3.09 * se;
  }

  private static double mstMu(double claimedRho, double actualRho) {
    var r = new SeededRandomSource(41);
    double lb = muLowerBound((t, sink) -> new MstGenerator(actualRho, r, s -> { }, 10).observe(sink::add)
        .run(t, new Zcdp(actualRho)), table(60, false), table(60, true), 1000);
    return lb / Math.sqrt(2 * (2 * claimedRho / 3));
  }

  /** MST at ρ = 1.5 (σ ≥ 1 on every measurement): the measurements' share is 2ρ/3. */
  @Test
  void mst_measurementsOnNeighbours_gaussianDpWithinClaim() {
    double ratio = mstMu(1.5, 1.5);
    assertTrue(ratio <= 1, "MST measurements: lower bound on mu is " + ratio + " times the claim");
  }

  @Test
  void mst_thirtyPercentTooLittleNoise_exceedsClaim() {
    double ratio = mstMu(1.5, 1.5 * 1.69);
    assertTrue(ratio > 1, "the audit cannot detect noise 1/1.3 of the claim's: " + ratio + " times the claim");
  }

  private static double rapGaussianMu(double claimedRho, double actualRho) {
    var r = new SeededRandomSource(51);
    double lb = muLowerBound((t, sink) -> {
      var res = rap(RapGenerator.Noise.GAUSSIAN, actualRho, r, sink).run(t, new Zcdp(actualRho));
      assertEquals(4, res.events().size(), "row count, x, y and the count, measured whole");
      return res;
    }, table(0, false), Table.of(DOM, new int[][] {{1}, {1}}), 1000);
    return lb / Math.sqrt(2 * claimedRho);
  }

  /** RAP (Gaussian) at ρ = 1 on a one-count query file: the pool is measured whole, so ρ_m = ρ. */
  @Test
  void rapGaussian_measurementsOnNeighbours_gaussianDpWithinClaim() {
    double ratio = rapGaussianMu(1, 1);
    assertTrue(ratio <= 1, "RAP (Gaussian) measurements: lower bound on mu is " + ratio + " times the claim");
  }

  @Test
  void rapGaussian_thirtyPercentTooLittleNoise_exceedsClaim() {
    double ratio = rapGaussianMu(1, 1.69);
    assertTrue(ratio > 1, "the audit cannot detect noise 1/1.3 of the claim's: " + ratio + " times the claim");
  }

  /**
   * RAP (Gaussian) on the marginal workload of x and y: the row count, the 1-ways of x and y (measured
   * first, a share of ρ split between them), then the pool {x, y}, measured whole; all of ρ is measurements.
   */
  private static double rapWorkloadGaussianMu(double claimedRho, double actualRho) {
    var r = new SeededRandomSource(52);
    double lb = muLowerBound((t, sink) -> {
      var res = new RapGenerator(RapGenerator.Noise.GAUSSIAN, actualRho, Workload.allKWay(DOM, 2), null, r, s -> { },
          2, 4, 2, 10, 2000, 1).observe(sink::add).run(t, new Zcdp(actualRho));
      assertEquals(4, res.events().size(), "row count, the 1-ways of x and y, then x,y measured whole");
      return res;
    }, table(60, false), table(60, true), 1000);
    return lb / Math.sqrt(2 * claimedRho);
  }

  @Test
  void rapWorkloadGaussian_measurementsOnNeighbours_gaussianDpWithinClaim() {
    double ratio = rapWorkloadGaussianMu(1, 1);
    assertTrue(ratio <= 1, "RAP (Gaussian, marginal workload) measurements: lower bound on mu is " + ratio
        + " times the claim");
  }

  @Test
  void rapWorkloadGaussian_thirtyPercentTooLittleNoise_exceedsClaim() {
    double ratio = rapWorkloadGaussianMu(1, 1.69);
    assertTrue(ratio > 1, "the audit cannot detect noise 1/1.3 of the claim's: " + ratio + " times the claim");
  }
}
