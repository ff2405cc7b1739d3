package org.privet.synth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.Zcdp;
import org.privet.mechanisms.ExponentialMechanism;
import org.privet.random.RandomSource;

/**
 * AIM, the adaptive and iterative mechanism for marginal-preserving synthetic data (McKenna,
 * Mullins, Sheldon &amp; Miklau 2022, VLDB, Algorithm 2), under ρ-zCDP:
 *
 * <ol>
 *   <li>measure every 1-way marginal with Gaussian noise (see departure 1 below), and compress
 *       sparse attributes by the noisy 1-ways (departure 2);
 *   <li>each round, choose a marginal r among the workload's downward closure by the exponential
 *       mechanism (ε = √(8·0.1·ρ/T), accounted as ε²/8-zCDP, bounded range) on the score
 *       w<sub>r</sub>·(‖M<sub>r</sub>(D) − M<sub>r</sub>(p̂)‖₁ − √(2/π)·σ·n<sub>r</sub>),
 *       restricted to candidates that keep the model below a size limit growing with the budget
 *       spent; measure it with discrete Gaussian noise σ; re-estimate p̂ (Private-PGM);
 *   <li>when the estimate of the chosen marginal barely moved, halve σ and double ε (annealing);
 *       stop when the remaining budget would not cover two more rounds, spending it all in one
 *       last round;
 *   <li>sample D′ from the final model.
 * </ol>
 *
 * <p>Departures from the paper's Algorithm 2, all data-independent, found by comparing it step by
 * step on Adult at ε = 0.1 (issue 14; figures in docs/benchmarks.md), where the paper's settings
 * scored worse than independent exact 1-ways because the 1-way marginals of the large attributes
 * (age, hours, fnlwgt, native-country: 42–100 cells) measured with σ₀ = √(T/(2·0.9·ρ)) ≈ 840
 * remained noise-dominated:
 *
 * <ol>
 *   <li>the 1-ways get {@value #ONE_WAY_SHARE} of ρ ({@value #SMALL_RHO_ONE_WAY_SHARE} when ρ &lt;
 *       {@value #SMALL_RHO}, i.e. ε ≲ 0.25 at δ = 10⁻⁹; the paper: 0.9·d/T ≈ 5.6%), split across
 *       attributes in proportion to |a|^(2/3); the rounds then start at the paper's σ and ε. On
 *       Adult at ε = 0.1, six runs each: share 0.3 → 0.373 mean error, 0.5 → 0.343 (two of six
 *       above the independent baseline's 0.345), 0.7 → 0.332, 0.85 → 0.328 (all six below); at
 *       ε = 1 and 10 share 0.7 costs 5% and 21%, hence the switch on the public ρ; below
 *       {@value #SMALL_RHO} the rounds' σ and ε are planned for {@value #SMALL_RHO_ROUNDS} rounds of
 *       the budget the 1-ways left (the paper's 16·d rounds of ρ give σ ≈ 840 there): eight runs
 *       at ε = 0.1, 0.331 mean error (max 0.339) against 0.339 (max 0.350) without it;
 *   <li>domain compression of sparse attributes ({@link DomainCompression}, MST's rule with the
 *       kept-share condition), which the reference implementation recommends for large
 *       attributes but does not run.
 * </ol>
 *
 * <p>Other departures: the model-size limit is in cells (default
 * {@value #DEFAULT_MAX_CELLS}, instead of 80 MB) so that a run fits a few minutes on 2 cores;
 * candidates whose model marginal would need more than a fixed amount of work to compute are
 * skipped in that round; mirror descent runs a bounded number of iterations.
 * Privacy argument: docs/proofs/synthetic-data.md.
 */
final class AimGenerator {
  static final double DEFAULT_MAX_CELLS = 2_000_000;
  /** Share of ρ spent on the initial 1-way marginals (the paper: 0.9·d/T = 0.9/16). */
  static final double ONE_WAY_SHARE = 0.5;
  /** The 1-way share below {@link #SMALL_RHO}, where the 1-ways of large attributes stay noise-dominated. */
  static final double SMALL_RHO_ONE_WAY_SHARE = 0.85;
  static final double SMALL_RHO = 1e-3;
  /** Below {@link #SMALL_RHO}: the number of rounds the budget left after the 1-ways is planned for. */
  static final double SMALL_RHO_ROUNDS = 5;
  /** Compress an attribute only if the values kept carry at least this share of the noisy total. */
  static final double MIN_KEPT_SHARE = 0.8;

  private final double rho;
  private final Workload workload;
  private final RandomSource random;
  private final Consumer<String> progress;
  private final double maxCells;
  private final int roundIterations;
  private final int finalIterations;
  private final boolean compress;

  AimGenerator(double rho, Workload workload, RandomSource random, Consumer<String> progress,
      double maxCells, int roundIterations, int finalIterations, boolean compress) {
    this.compress = compress;
    this.rho = rho;
    this.workload = workload;
    this.random = random;
    this.progress = progress;
    this.maxCells = maxCells;
    this.roundIterations = roundIterations;
    this.finalIterations = finalIterations;
  }


  /** Runs the generator; {@code total} is the planned cost reported in the result. */
  SynthesisResult run(Table original, PrivacyLoss total) {
    Domain dom = original.domain();
    int d = dom.size();
    int[] card = dom.cardinalities();
    Table data = original;
    Map<String, int[]> candidates = new LinkedHashMap<>();
    Map<String, Double> weight = new LinkedHashMap<>();
    for (int[] q : workload.marginals()) {
      for (int[] sub : nonEmptySubsets(q)) {
        candidates.putIfAbsent(Arrays.toString(sub), sub);
      }
    }
    for (var e : candidates.entrySet()) {
      double wt = 0;
      for (int[] q : workload.marginals()) {
        wt += IndexMap.intersect(e.getValue(), q).length;
      }
      weight.put(e.getKey(), wt);
    }
    int rounds = 16 * d;
    // Plan slightly below ρ so that upward rounding of every event's cost stays within ρ.
    double budget = rho * (1 - 1e-9);
    double sigma = Math.sqrt(rounds / (2 * 0.9 * budget));
    double epsilon = Math.sqrt(8 * 0.1 * budget / rounds);
    var events = new ArrayList<PrivacyLoss>();
    var measurements = new ArrayList<Measurement>();
    var selected = new ArrayList<int[]>();
    double used = 0;
    // Initialization (departure 1): ONE_WAY_SHARE of ρ on the 1-ways, attribute a getting a share
    // proportional to |a|^(2/3), which minimizes Σ_a |a|·σ_a (the 1-ways' expected L1 noise) for that
    // total; the paper gives every 1-way ρ/T.
    double norm = 0;
    for (int a = 0; a < d; a++) {
      norm += Math.cbrt((double) card[a] * card[a]);
    }
    for (int a = 0; a < d; a++) {
      int[] one = {a};
      double rhoA = (rho < SMALL_RHO ? SMALL_RHO_ONE_WAY_SHARE : ONE_WAY_SHARE) * budget * Math.cbrt((double) card[a] * card[a]) / norm;
      var rel = NoisyMarginals.gaussian(one, data.marginal(one), Math.sqrt(1 / (2 * rhoA)), random);
      measurements.add(rel.measurement());
      events.add(rel.loss());
      used += rel.loss().rho();
    }
    // Compress the domain by the noisy 1-ways (post-processing), then work on the compressed table.
    DomainCompression compression = compress ? DomainCompression.of(card, measurements, MIN_KEPT_SHARE, true) : null;
    if (compression != null) {
      measurements.replaceAll(compression::compress);
      data = compression.compress(data);
      card = compression.card;
    }
    if (rho < SMALL_RHO) {
      // Departure 5: below SMALL_RHO the rounds' σ and ε are planned for SMALL_RHO_ROUNDS rounds of
      // what the 1-ways left, not for the paper's 16·d rounds of ρ (σ ≈ 840 on Adult at ε = 0.1,
      // noise-dominated measurements; annealing then spent the rest in many useless rounds).
      sigma = Math.sqrt(SMALL_RHO_ROUNDS / (2 * 0.9 * (budget - used)));
      epsilon = Math.sqrt(8 * 0.1 * (budget - used) / SMALL_RHO_ROUNDS);
    }
    // True answers to every candidate (private; used only inside the exponential mechanism's scores).
    Map<String, double[]> answers = new LinkedHashMap<>();
    for (var e : candidates.entrySet()) {
      answers.put(e.getKey(), data.marginal(e.getValue()));
    }
    var estimator = new MarginalEstimator(card);
    GraphicalModel model = estimator.estimate(measurements, roundIterations);
    progress.accept(String.format("aim: measured %d one-way marginals, rho used %.4g of %.4g%s", d, used, rho, compression == null ? "" : String.format("; domain compressed from %d to %d one-way cells",
            DomainCompression.oneWayCells(dom.cardinalities()), DomainCompression.oneWayCells(card))));
    boolean terminate = false;
    int t = 0;
    while (!terminate) {
      t++;
      double remaining = budget - used;
      if (remaining < 2 * (0.5 / (sigma * sigma) + epsilon * epsilon / 8)) {
        sigma = Math.sqrt(1 / (2 * 0.9 * remaining));
        epsilon = Math.sqrt(8 * 0.1 * remaining);
        terminate = true;
      }
      double sizeLimit = maxCells * (used + 0.5 / (sigma * sigma) + epsilon * epsilon / 8) / budget;
      var cliques = new ArrayList<int[]>();
      for (Measurement m : measurements) {
        cliques.add(m.attrs());
      }
      var keys = new ArrayList<String>();
      var scores = new ArrayList<Double>();
      double maxWeight = 0;
      // Largest candidates first, so that a smaller one outside every clique can be summed from an
      // already computed superset instead of running variable elimination again.
      var computed = new ArrayList<int[]>();
      var computedValues = new ArrayList<double[]>();
      var ordered = new ArrayList<>(candidates.entrySet());
      ordered.sort((x, y) -> y.getValue().length - x.getValue().length);
      for (var e : ordered) {
        int[] r = e.getValue();
        boolean free = model.tree.cliqueContaining(r) >= 0;
        if (!free) {
          cliques.add(r);
          boolean fits = JunctionTree.size(card, cliques) <= sizeLimit;
          cliques.remove(cliques.size() - 1);
          if (!fits) {
            continue;
          }
        }
        double[] est = null;
        if (!free) {
          for (int j = 0; j < computed.size() && est == null; j++) {
            if (IndexMap.contains(computed.get(j), r)) {
              est = IndexMap.sum(computedValues.get(j), IndexMap.of(card, computed.get(j), r), IndexMap.cells(card, r));
            }
          }
        }
        if (est == null) {
          est = model.project(r, GraphicalModel.DEFAULT_PROJECTION_CAP);
          if (est == null) {
            continue;
          }
          if (!free) {
            computed.add(r);
            computedValues.add(est);
          }
        }
        double[] x = answers.get(e.getKey());
        double l1 = 0;
        for (int i = 0; i < x.length; i++) {
          l1 += Math.abs(x[i] - est[i]);
        }
        double wt = weight.get(e.getKey());
        keys.add(e.getKey());
        scores.add(wt * (l1 - Math.sqrt(2 / Math.PI) * sigma * x.length));
        maxWeight = Math.max(maxWeight, wt);
      }
      if (keys.isEmpty()) {
        throw new IllegalStateException("no candidate marginal fits the model size limit");
      }
      ExponentialMechanism em = ExponentialMechanism.builder()
          .epsilon(epsilon)
          .sensitivity(maxWeight)
          .monotone(false)
          .randomSource(random)
          .build();
      int pick = em.select(scores.stream().mapToDouble(Double::doubleValue).toArray());
      Zcdp selectionCost = SynthesisBudget.boundedRange(em.privacyLoss());
      events.add(selectionCost);
      int[] r = candidates.get(keys.get(pick));
      double[] before = model.project(r, Double.POSITIVE_INFINITY);
      var rel = NoisyMarginals.gaussian(r, answers.get(keys.get(pick)), sigma, random);
      events.add(rel.loss());
      used += selectionCost.rho() + rel.loss().rho();
      measurements.add(rel.measurement());
      selected.add(r);
      model = estimator.estimate(measurements, roundIterations);
      double[] after = model.project(r, Double.POSITIVE_INFINITY);
      double moved = 0;
      for (int i = 0; i < before.length; i++) {
        moved += Math.abs(after[i] - before[i]);
      }
      progress.accept(String.format("aim: round %d selected %s (%d cells, sigma %.1f), rho used %.4g of %.4g", t,
          dom.names(r), before.length, sigma, used, rho));
      if (!terminate && moved <= Math.sqrt(2 / Math.PI) * sigma * before.length) {
        sigma /= 2;
        epsilon *= 2;
      }
    }
    double spent = SynthesisBudget.totalRho(events);
    if (spent > rho) {
      throw new IllegalStateException("internal budget error: spent rho " + spent + " exceeds " + rho);
    }
    model = estimator.estimate(measurements, finalIterations);
    int rows = (int) Math.max(1, Math.round(model.total));
    progress.accept("aim: sampling " + rows + " rows");
    int[][] sample = model.sample(rows, random);
    Table synthetic = compression == null ? Table.trusted(dom, sample) : compression.decompress(sample, dom, random);
    return new SynthesisResult(synthetic, events, total, selected);
  }

  static List<int[]> nonEmptySubsets(int[] q) {
    var out = new ArrayList<int[]>();
    int k = q.length;
    for (int mask = 1; mask < (1 << k); mask++) {
      int[] s = new int[Integer.bitCount(mask)];
      int j = 0;
      for (int i = 0; i < k; i++) {
        if ((mask & (1 << i)) != 0) {
          s[j++] = q[i];
        }
      }
      out.add(s);
    }
    out.sort((x, y) -> x.length - y.length);
    return out;
  }
}
