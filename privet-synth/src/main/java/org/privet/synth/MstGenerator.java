package org.privet.synth;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.Zcdp;
import org.privet.mechanisms.ExponentialMechanism;
import org.privet.random.RandomSource;

/**
 * MST, the winning mechanism of the NIST 2018 synthetic-data challenge (McKenna, Miklau &amp;
 * Sheldon 2021, "Winning the NIST Contest: A scalable and general approach to differentially
 * private synthetic data", Journal of Privacy and Confidentiality 11(3), Algorithm 1), under ρ-zCDP
 * with the budget in three equal parts:
 *
 * <ol>
 *   <li>measure every 1-way marginal with Gaussian noise σ₁ = √(3d/(2ρ)) (together ρ/3);
 *       compress each attribute's domain by its noisy 1-way ({@link DomainCompression}: values
 *       below 3σ₁ merged, as in the paper);
 *   <li>select a maximum spanning tree on the attributes, Kruskal-style: d − 1 times, among the
 *       pairs that join two components, pick one by the exponential mechanism (ε = √(8·(ρ/3)/(d − 1)),
 *       accounted as ε²/8-zCDP, bounded range) on the score ‖M<sub>ab</sub>(D) − M<sub>ab</sub>(p̂)‖₁
 *       (sensitivity 1), p̂ being the model fitted to the noisy 1-ways;
 *   <li>measure the d − 1 tree marginals with σ₂ = √(3(d − 1)/(2ρ)) (together ρ/3), fit the
 *       graphical model to all measurements ({@link MarginalEstimator}, Private-PGM) and sample.
 * </ol>
 *
 * <p>Privacy argument: docs/proofs/synthetic-data.md (adaptive zCDP composition of 2d − 1
 * Gaussian releases and d − 1 exponential mechanisms; the compression and the estimate are
 * post-processing).
 */
final class MstGenerator {
  private final double rho;
  private final RandomSource random;
  private final Consumer<String> progress;
  private final int iterations;

  /** Sees every noisy measurement as it is released (tests' privacy audits); none by default. */
  private Consumer<Measurement> observer = m -> { };

  /** Sets the measurement observer (package-private: for the audits in the tests). */
  MstGenerator observe(Consumer<Measurement> observer) {
    this.observer = observer;
    return this;
  }

  MstGenerator(double rho, RandomSource random, Consumer<String> progress, int iterations) {
    this.rho = rho;
    this.random = random;
    this.progress = progress;
    this.iterations = iterations;
  }

  /** Runs the generator; {@code total} is the planned cost reported in the result. */
  SynthesisResult run(Table original, PrivacyLoss total) {
    Domain dom = original.domain();
    int d = dom.size();
    double budget = rho * (1 - 1e-9);
    var events = new ArrayList<PrivacyLoss>();
    var measurements = new ArrayList<Measurement>();
    double sigma1 = Math.sqrt(3.0 * d / (2 * budget));
    for (int a = 0; a < d; a++) {
      int[] one = {a};
      var rel = NoisyMarginals.gaussian(one, original.marginal(one), sigma1, random);
      measurements.add(rel.measurement());
      observer.accept(rel.measurement());
      events.add(rel.loss());
    }
    DomainCompression compression = DomainCompression.of(dom.cardinalities(), measurements, 0, false);
    measurements.replaceAll(compression::compress);
    Table data = compression.compress(original);
    int[] card = compression.card;
    progress.accept(String.format("mst: measured %d one-way marginals (sigma %.1f); domain compressed from %d to %d"
        + " one-way cells", d, sigma1, DomainCompression.oneWayCells(dom.cardinalities()),
        DomainCompression.oneWayCells(card)));
    var estimator = new MarginalEstimator(card);
    var selected = new ArrayList<int[]>();
    if (d > 1) {
      GraphicalModel model = estimator.estimate(measurements, iterations);
      List<int[]> tree = select(data, model, budget / 3, d, events);
      double sigma2 = Math.sqrt(3.0 * (d - 1) / (2 * budget));
      for (int[] pair : tree) {
        var rel = NoisyMarginals.gaussian(pair, data.marginal(pair), sigma2, random);
        measurements.add(rel.measurement());
        observer.accept(rel.measurement());
        events.add(rel.loss());
        selected.add(pair);
        progress.accept(String.format("mst: measured %s (sigma %.1f)", dom.names(pair), sigma2));
      }
    }
    double spent = SynthesisBudget.totalRho(events);
    if (spent > rho) {
      throw new IllegalStateException("internal budget error: spent rho " + spent + " exceeds " + rho);
    }
    GraphicalModel model = estimator.estimate(measurements, 5 * iterations);
    int rows = (int) Math.max(1, Math.round(model.total));
    progress.accept("mst: sampling " + rows + " rows");
    return new SynthesisResult(compression.decompress(model.sample(rows, random), dom, random), events, total,
        selected);
  }

  /** The d − 1 edges of a spanning tree chosen by the exponential mechanism, Kruskal-style. */
  private List<int[]> select(Table data, GraphicalModel model, double rhoSelect, int d, List<PrivacyLoss> events) {
    int[] component = new int[d];
    for (int a = 0; a < d; a++) {
      component[a] = a;
    }
    var pairs = new ArrayList<int[]>();
    var scores = new ArrayList<Double>();
    for (int a = 0; a < d; a++) {
      for (int b = a + 1; b < d; b++) {
        int[] pair = {a, b};
        double[] x = data.marginal(pair);
        double[] est = model.project(pair, Double.POSITIVE_INFINITY);
        double l1 = 0;
        for (int i = 0; i < x.length; i++) {
          l1 += Math.abs(x[i] - est[i]);
        }
        pairs.add(pair);
        scores.add(l1);
      }
    }
    double epsilon = Math.sqrt(8 * rhoSelect / (d - 1));
    var tree = new ArrayList<int[]>();
    for (int step = 0; step < d - 1; step++) {
      var open = new ArrayList<Integer>();
      for (int i = 0; i < pairs.size(); i++) {
        if (component[pairs.get(i)[0]] != component[pairs.get(i)[1]]) {
          open.add(i);
        }
      }
      double[] u = new double[open.size()];
      for (int j = 0; j < u.length; j++) {
        u[j] = scores.get(open.get(j));
      }
      ExponentialMechanism em = ExponentialMechanism.builder()
          .epsilon(epsilon)
          .sensitivity(1.0)
          .monotone(false)
          .randomSource(random)
          .build();
      int[] pick = pairs.get(open.get(em.select(u)));
      Zcdp cost = SynthesisBudget.boundedRange(em.privacyLoss());
      events.add(cost);
      tree.add(pick);
      int from = component[pick[1]];
      int to = component[pick[0]];
      for (int a = 0; a < d; a++) {
        if (component[a] == from) {
          component[a] = to;
        }
      }
    }
    return tree;
  }
}
