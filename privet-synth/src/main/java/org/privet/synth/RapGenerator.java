package org.privet.synth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.mechanisms.ExponentialMechanism;
import org.privet.random.RandomSource;

/**
 * Relaxed Adaptive Projection (Aydore, Brown, Kearns, Kenthapadi, Melis, Roth, Siva, "Differentially
 * Private Query Release Through Adaptive Projection", ICML 2021, Algorithm 4), with the softmax
 * relaxation of Liu, Vietri &amp; Wu ("Iterative Methods for Private Synthetic Data: Unifying
 * Framework and New Methods", NeurIPS 2021): the course's "noisy answers, then gradient descent on
 * D′".
 *
 * <ul>
 *   <li><b>Relaxed table.</b> D′ has n′ rows; row i holds, for every attribute a, a probability
 *       vector p<sub>i,a</sub> = softmax(θ<sub>i,a</sub>) over a's values (a relaxed one-hot block,
 *       entries in [0, 1]). A conjunction "a₁ = v₁ ∧ … ∧ a<sub>k</sub> = v<sub>k</sub>" is answered
 *       on D′ by the product query (1/n′)·Σ<sub>i</sub> Π<sub>j</sub> p<sub>i,a<sub>j</sub></sub>[v<sub>j</sub>],
 *       differentiable in θ; a marginal is the vector of its cells' conjunctions.
 *   <li><b>Count.</b> A share {@value #COUNT_SHARE} of the budget buys a noisy row count n̂.
 *   <li><b>1-ways first</b> (a marginal workload, not a query file). A share
 *       {@value #ONE_WAY_SHARE} of the rest ({@value #SMALL_ONE_WAY_SHARE} for a small budget, see
 *       {@link #smallBudget}) measures every 1-way marginal (split across
 *       attributes by {@link #oneWayWeights}); every relaxed row starts at the product of their
 *       projections onto the simplex (log-probabilities plus a uniform jitter that breaks the rows'
 *       symmetry), i.e. D′ starts as the independent model. As MWEM's start (issue 14), this matters
 *       most at small ε, where the uniform start left attributes never selected at uniform.
 *   <li><b>Adaptive rounds.</b>
 *       Each of T rounds selects K marginals not measured yet, one at a time, by the exponential
 *       mechanism (privet-core) on the score ‖M<sub>r</sub>(D) − n̂·M<sub>r</sub>(D′)‖₁ (sensitivity 1),
 *       less, with a small budget, the expected L1 norm of r's measurement noise (a public offset,
 *       as in AIM),
 *       measures each with discrete Gaussian noise (ρ-zCDP) or discrete Laplace noise (pure ε-DP),
 *       then runs Adam on Σ<sub>r measured</sub> ‖M<sub>r</sub>(D′) − y<sub>r</sub>/n̂‖² / σ<sub>r</sub>²
 *       (σ<sub>r</sub>: the noise's standard deviation; with a marginal workload y<sub>r</sub> is the
 *       noisy marginal projected onto {x ≥ 0, Σx = n̂}), warm-started from the previous round.
 *   <li><b>Output.</b> round(n̂) rows, row j drawn attribute by attribute from the relaxed row j mod n′.
 * </ul>
 *
 * <p><b>Query files</b> ({@link QueryWorkload}): the pool also holds each conjunctive count (a
 * 1-cell query, the conjunction's codes fixed) and, for each conditional average of a bounded
 * column C over a conjunction, a noisy count and a noisy sum of C's values rescaled to [−1, 1] on
 * the fixed-point grid 1/{@value #GRID} (sensitivity 1 in that scale); on D′ the sum is the product
 * query times each row's expected rescaled value, so it is differentiable like the counts, and the
 * conditional average is read as sum/count. The whole pool is measured without selection when the
 * noise allows ({@code autoPerRound}); the paper's setting is a list of single queries too.
 *
 * <p>Departures from the paper, data-independent: for a marginal workload, marginals (not single
 * queries) are the unit of selection and measurement; candidates are the workload's downward closure restricted to marginals
 * of at most {@link #maxCells} cells (to bound the work of the product queries), 1-way marginals
 * always included (a query file's pool is never empty; a marginal workload's 1-ways are measured
 * first, and when nothing else is left they get the whole budget after the count); the 1-ways
 * first and the simplex projection (marginal workloads), and the score offset and 4 rounds of 2
 * selections for a small budget (the latter the {@link Synthesizer} defaults) were found on Adult
 * (docs/benchmarks.md, issue 14); n̂ is measured, the
 * paper assumes n public. Rows are processed in parallel ({@link #threads} workers). Budget split
 * per selected marginal: 10% selection, 90% measurement (Gaussian, as in AIM) or half and half
 * (Laplace, as in MWEM). Privacy argument: docs/proofs/synthetic-data.md.
 */
final class RapGenerator {
  static final double COUNT_SHARE = 0.02;
  /** With a marginal workload: the share of the budget after the count spent on all 1-way marginals first. */
  static final double ONE_WAY_SHARE = 0.5;
  /** The 1-way share for a small budget (below {@link #SMALL_RHO} or {@link #SMALL_EPSILON}). */
  static final double SMALL_ONE_WAY_SHARE = 0.85;
  static final double SMALL_RHO = 1e-3;
  static final double SMALL_EPSILON = 0.25;
  /** The relaxed rows start at log(p̂ + floor) plus uniform jitter of this width (breaks the rows' symmetry). */
  static final double START_JITTER = 1.0;
  static final double START_FLOOR = 1e-4;

  /** The noise of the measurements, and so the privacy measure. */
  enum Noise {
    /** Discrete Gaussian, ρ-zCDP. */
    GAUSSIAN,
    /** Discrete Laplace, pure ε-DP. */
    LAPLACE
  }

  private final Noise noise;
  private final double budgetValue;
  private final Workload workload;
  private final QueryWorkload queries;
  private final RandomSource random;
  private final Consumer<String> progress;
  private final int rounds;
  private final int perRound;
  private final int syntheticRows;
  private final int iterations;
  private final double maxCells;
  private final int threads;

  /**
   * @param budgetValue ρ (Gaussian) or ε (Laplace)
   */
  /** Sees every noisy measurement as it is released (tests' privacy audits); none by default. */
  private Consumer<Measurement> observer = m -> { };

  /** Sets the measurement observer (package-private: for the audits in the tests). */
  RapGenerator observe(Consumer<Measurement> observer) {
    this.observer = observer;
    return this;
  }

  RapGenerator(Noise noise, double budgetValue, Workload workload, QueryWorkload queries, RandomSource random,
      Consumer<String> progress, int rounds, int perRound, int syntheticRows, int iterations, double maxCells,
      int threads) {
    this.queries = queries;
    this.noise = noise;
    this.budgetValue = budgetValue;
    this.workload = workload;
    this.random = random;
    this.progress = progress;
    this.rounds = rounds;
    this.perRound = perRound;
    this.syntheticRows = syntheticRows;
    this.iterations = iterations;
    this.maxCells = maxCells;
    this.threads = threads;
  }

  /**
   * One candidate query vector, ℓ1 and ℓ2 sensitivity 1 under add/remove: a marginal (its cells), a
   * conjunctive count (one cell: the conjunction's codes fixed), or the scaled sum of a bounded
   * column over a conjunction (one cell, each matching row contributing w[value] ∈ [−1, 1]).
   */
  private static final class Marginal {
    final String label;
    final int[] attrs;
    final int cells;
    final int[][] digit;
    /** A sum's averaged column (−1 otherwise), and its per-code weights on the grid 1/{@value #GRID}. */
    final int column;
    final double[] columnWeight;
    double[] target;
    double weight;

    Marginal(int[] attrs, int[] card, String label) {
      this.label = label;
      this.attrs = attrs;
      this.cells = IndexMap.cells(card, attrs);
      this.column = -1;
      this.columnWeight = null;
      digit = new int[attrs.length][cells];
      for (int c = 0; c < cells; c++) {
        int rest = c;
        for (int j = attrs.length - 1; j >= 0; j--) {
          digit[j][c] = rest % card[attrs[j]];
          rest /= card[attrs[j]];
        }
      }
    }

    /** A conjunction's count ({@code column} −1) or a column's scaled sum over it. */
    Marginal(int[] attrs, int[] codes, int column, double[] columnWeight, String label) {
      this.label = label;
      this.attrs = attrs;
      this.cells = 1;
      this.column = column;
      this.columnWeight = columnWeight;
      digit = new int[attrs.length][1];
      for (int j = 0; j < attrs.length; j++) {
        digit[j][0] = codes[j];
      }
    }

    /** The exact answer on the data (a sum: in integer units of 1/GRID). */
    long[] exact(Table data) {
      if (column < 0 && cells > 1) {
        double[] m = data.marginal(attrs);
        long[] out = new long[m.length];
        for (int c = 0; c < m.length; c++) {
          out[c] = Math.round(m[c]);
        }
        return out;
      }
      int[][] cols = data.columnsShared();
      long acc = 0;
      rows:
      for (int i = 0; i < data.rows(); i++) {
        for (int j = 0; j < attrs.length; j++) {
          if (cols[attrs[j]][i] != digit[j][0]) {
            continue rows;
          }
        }
        acc += column < 0 ? 1 : Math.round(columnWeight[cols[column][i]] * GRID);
      }
      return new long[] {acc};
    }
  }

  /**
   * K for a query file (perRound 0): the whole pool in the first round when measuring all of it
   * would leave each answer's noise standard deviation at most {@value #MEASURE_ALL_NOISE} of the
   * noisy row count n̂ (a DP output, so the choice is post-processing), otherwise the adaptive
   * default of {@value #AUTO_K} per round. Measured on Adult's conditional workload: measuring all
   * 176 candidates is best at ε ≥ 1 and much worse than adaptive selection at ε = 0.1.
   */
  private int autoPerRound(int pool, double rest, double nHat) {
    double sd = noise == Noise.GAUSSIAN ? Math.sqrt(pool / (2 * rest)) : Math.sqrt(2) * pool / rest;
    return sd <= MEASURE_ALL_NOISE * nHat ? Math.max(1, (pool + rounds - 1) / rounds) : AUTO_K;
  }

  static final double MEASURE_ALL_NOISE = 0.01;
  static final int AUTO_K = 4;

  /** Fixed-point grid of the scaled sums: weights are multiples of 1/GRID, sums integers in those units. */
  static final long GRID = 1 << 10;

  /** The candidates of a query file: its marginals' closures, 1-ways of the attributes it reads, its queries. */
  private Map<String, Marginal> queryCandidates(Domain dom, int[] card) {
    Map<String, Marginal> out = new LinkedHashMap<>();
    for (QueryWorkload.Query q : queries.queries()) {
      if (q.kind() == QueryWorkload.Kind.MARGINAL) {
        addClosure(out, q.attrs(), card, dom);
        continue;
      }
      for (int a : q.attrs()) {
        addClosure(out, new int[] {a}, card, dom);
      }
      String conj = conjunctionLabel(dom, q);
      out.computeIfAbsent("count " + conj, k -> new Marginal(q.attrs(), q.codes(), -1, null, k));
      if (q.kind() == QueryWorkload.Kind.MEAN) {
        addClosure(out, new int[] {q.target()}, card, dom);
        double[] w = scaledWeights(dom.attribute(q.target()));
        String label = "sum " + dom.attribute(q.target()).name() + " | " + conj;
        out.computeIfAbsent(label, k -> new Marginal(q.attrs(), q.codes(), q.target(), w, k));
      }
    }
    return out;
  }

  private void addClosure(Map<String, Marginal> out, int[] attrs, int[] card, Domain dom) {
    for (int[] sub : AimGenerator.nonEmptySubsets(attrs)) {
      if (sub.length == 1 || IndexMap.cellsApprox(card, sub) <= maxCells) {
        out.computeIfAbsent("marginal " + dom.names(sub), k -> new Marginal(sub, card, k));
      }
    }
  }

  private static String conjunctionLabel(Domain dom, QueryWorkload.Query q) {
    var sb = new StringBuilder();
    for (int j = 0; j < q.attrs().length; j++) {
      Attribute a = dom.attribute(q.attrs()[j]);
      sb.append(j == 0 ? "" : " ").append(a.name()).append('=').append(a.decode(q.codes()[j]));
    }
    return sb.toString();
  }

  /**
   * A bounded column's per-code weights (v − centre)/halfRange ∈ [−1, 1] on the public range of its
   * values, rounded to the grid 1/GRID (public, data-independent), so a row moves the scaled sum by
   * at most 1.
   */
  static double[] scaledWeights(Attribute a) {
    double[] v = QueryWorkload.values(a);
    double lo = Arrays.stream(v).min().orElse(0);
    double hi = Arrays.stream(v).max().orElse(0);
    double half = (hi - lo) / 2;
    double[] w = new double[v.length];
    for (int c = 0; c < v.length; c++) {
      w[c] = half > 0 ? Math.max(-GRID, Math.min(GRID, Math.round((v[c] - (lo + hi) / 2) / half * GRID))) / (double) GRID
          : 0;
    }
    return w;
  }

  SynthesisResult run(Table data, PrivacyLoss total) {
    Domain dom = data.domain();
    int d = dom.size();
    int[] card = dom.cardinalities();
    int[] offset = new int[d + 1];
    for (int a = 0; a < d; a++) {
      offset[a + 1] = offset[a] + card[a];
    }
    int width = offset[d];
    Map<String, Marginal> candidates = new LinkedHashMap<>();
    if (queries != null) {
      candidates = queryCandidates(dom, card);
    } else {
      for (int[] q : workload.marginals()) {
        addClosure(candidates, q, card, dom);
      }
      // Every attribute's 1-way, even one the workload does not read (measured first, below).
      for (int a = 0; a < d; a++) {
        addClosure(candidates, new int[] {a}, card, dom);
      }
    }
    List<Marginal> open = new ArrayList<>(candidates.values());
    Map<Marginal, long[]> answers = new LinkedHashMap<>();
    for (Marginal m : open) {
      answers.put(m, m.exact(data));
    }
    double budget = budgetValue * (1 - 1e-9);
    var events = new ArrayList<PrivacyLoss>();
    var receipt = new ArrayList<String>();
    // The noisy row count (a 1-cell marginal over no attribute).
    double countShare = budget * COUNT_SHARE;
    double nHat;
    if (noise == Noise.GAUSSIAN) {
      var rel = NoisyMarginals.gaussian(new int[0], new double[] {data.rows()}, Math.sqrt(1 / (2 * countShare)), random);
      events.add(rel.loss());
      receipt.add(String.format(Locale.ROOT, "measure row count: discrete Gaussian sigma %.6g, %s",
          rel.measurement().sigma(), rel.loss()));
      nHat = Math.max(1, rel.measurement().y()[0]);
      observer.accept(rel.measurement());
    } else {
      var rel = NoisyMarginals.laplace(new double[] {data.rows()}, countShare, random);
      events.add(rel.loss());
      receipt.add(String.format(Locale.ROOT, "measure row count: discrete Laplace scale %.6g, %s", rel.scale(),
          rel.loss()));
      nHat = Math.max(1, rel.y()[0]);
      observer.accept(new Measurement(new int[0], rel.y(), Math.sqrt(2) * rel.scale()));
    }
    double rest = budget * (1 - COUNT_SHARE);
    var measured = new ArrayList<Marginal>();
    double[][] start = null;
    if (queries == null) {
      // A marginal workload: every 1-way marginal first (a public share of the budget), the relaxed
      // table started at the product of their projections, and the 1-ways kept out of the pool.
      List<Marginal> oneWays = new ArrayList<>();
      for (int a = 0; a < d; a++) {
        Marginal m = candidates.get("marginal " + dom.names(new int[] {a}));
        open.remove(m);
        oneWays.add(m);
      }
      double share = open.isEmpty() ? 1 : oneWayShare();
      double[] w = oneWayWeights(card);
      start = new double[d][];
      for (int a = 0; a < d; a++) {
        Marginal m = oneWays.get(a);
        double cost = rest * share * w[a];
        measure(m, answers.get(m), noise == Noise.GAUSSIAN ? Math.sqrt(1 / (2 * cost)) : cost, events, receipt,
            nHat, true);
        measured.add(m);
        start[a] = m.target;
      }
      rest = rest * (1 - share);
    }
    int perRoundK = perRound > 0 ? perRound : autoPerRound(open.size(), rest, nHat);
    int selections = Math.min(rounds * perRoundK, open.size());
    // A pool no larger than the selections is measured whole: selecting would only spend budget.
    boolean selecting = selections < open.size();
    double perSelection = selections == 0 ? 0 : rest / selections;
    double selectEpsilon;
    double sigma;
    double laplaceEpsilon = Double.NaN;
    double noisePerCell;
    if (noise == Noise.GAUSSIAN) {
      selectEpsilon = Math.sqrt(8 * 0.1 * perSelection);
      sigma = Math.sqrt(1 / (2 * (selecting ? 0.9 : 1.0) * perSelection));
      noisePerCell = Math.sqrt(2 / Math.PI) * sigma;
    } else {
      selectEpsilon = perSelection / 2;
      laplaceEpsilon = selecting ? perSelection / 2 : perSelection;
      sigma = Math.sqrt(2) / laplaceEpsilon;
      noisePerCell = 1 / laplaceEpsilon;
    }
    // The selection score's offset per cell (AIM's, McKenna et al. 2022): the expected L1 norm of
    // the measurement noise, public; only with a marginal workload and a small budget (on Adult it
    // helps at ε = 0.1 and costs 8% at ε = 1, where it keeps large marginals out; docs/benchmarks.md).
    double offsetPerCell = queries == null && smallBudget(noise, budgetValue) ? noisePerCell : 0;
    int n1 = syntheticRows;
    double[] theta = new double[n1 * width];
    for (int i = 0; i < n1; i++) {
      for (int a = 0; a < d; a++) {
        for (int v = 0; v < card[a]; v++) {
          double jitter = GraphicalModel.uniform(random) - 0.5;
          theta[i * width + offset[a] + v] = start == null ? 0.01 * jitter
              : Math.log(start[a][v] + START_FLOOR) + START_JITTER * jitter;
        }
      }
    }
    double[] prob = new double[n1 * width];
    softmax(theta, prob, n1, offset);
    var selected = new ArrayList<int[]>();
    Adam adam = new Adam(theta.length);
    ForkJoinPool pool = new ForkJoinPool(threads);
    try {
      int done = 0;
      for (int t = 1; t <= rounds && (done < selections || !selecting); t++) {
        // Scores of the open candidates against the current D′ (unchanged within a round).
        List<Double> scores = new ArrayList<>();
        for (Marginal m : selecting ? open : List.<Marginal>of()) {
          double[] est = evaluate(pool, m, prob, n1, offset, width);
          long[] x = answers.get(m);
          double scale = m.column >= 0 ? GRID : 1;
          double l1 = 0;
          for (int c = 0; c < x.length; c++) {
            l1 += Math.abs(x[c] / scale - nHat * est[c]);
          }
          scores.add(l1 - offsetPerCell * m.cells);
        }
        int inRound = selecting ? perRoundK : open.size();
        for (int k = 0; k < inRound && done < selections; k++, done++) {
          Marginal pick;
          if (selecting) {
            double[] u = scores.stream().mapToDouble(Double::doubleValue).toArray();
            ExponentialMechanism em = ExponentialMechanism.builder()
                .epsilon(selectEpsilon)
                .sensitivity(1.0)
                .monotone(false)
                .randomSource(random)
                .build();
            int chosen = em.select(u);
            pick = open.remove(chosen);
            scores.remove(chosen);
            PrivacyLoss selectionCost = noise == Noise.GAUSSIAN
                ? SynthesisBudget.boundedRange(em.privacyLoss()) : em.privacyLoss();
            events.add(selectionCost);
            receipt.add(String.format(Locale.ROOT, "select %s: exponential mechanism epsilon %.6g over %d candidates, %s",
                pick.label, selectEpsilon, u.length, selectionCost));
          } else {
            pick = open.remove(0);
          }
          measure(pick, answers.get(pick), noise == Noise.GAUSSIAN ? sigma : laplaceEpsilon, events, receipt, nHat,
              queries == null && pick.column < 0 && pick.cells > 1);
          measured.add(pick);
          selected.add(pick.attrs);
        }
        fit(pool, measured, theta, prob, adam, n1, offset, width, nHat);
        progress.accept(String.format("rap: round %d measured %d queries (last %s)", t, measured.size(),
            measured.get(measured.size() - 1).label));
      }
    } finally {
      pool.shutdown();
    }
    checkBudget(events);
    int rows = (int) Math.max(1, Math.min(Integer.MAX_VALUE - 8, Math.round(nHat)));
    progress.accept("rap: sampling " + rows + " rows");
    int[][] cols = new int[d][rows];
    for (int r = 0; r < rows; r++) {
      int i = r % n1;
      for (int a = 0; a < d; a++) {
        double u = GraphicalModel.uniform(random);
        int base = i * width + offset[a];
        int v = 0;
        double acc = prob[base];
        while (v < card[a] - 1 && acc <= u) {
          acc += prob[base + ++v];
        }
        cols[a][r] = v;
      }
    }
    return new SynthesisResult(Table.trusted(dom, cols), events, total, selected, receipt);
  }

  /**
   * Measures one candidate (discrete Gaussian of σ {@code noiseParam}, or discrete Laplace at ε
   * {@code noiseParam}), records its event and receipt line, and sets its fitting target (the noisy
   * answer over n̂; a full marginal's first projected onto {x ≥ 0, Σx = n̂} when {@code project},
   * post-processing) and weight 1/σ².
   */
  private void measure(Marginal pick, long[] exact, double noiseParam, List<PrivacyLoss> events, List<String> receipt,
      double nHat, boolean project) {
    long sens = pick.column >= 0 ? GRID : 1;
    double[] y;
    if (noise == Noise.GAUSSIAN) {
      var rel = NoisyMarginals.gaussian(pick.attrs, exact, sens, noiseParam, random);
      events.add(rel.loss());
      y = rel.measurement().y();
      observer.accept(rel.measurement());
      double unitSigma = rel.measurement().sigma();
      pick.weight = 1 / (unitSigma * unitSigma);
      receipt.add(String.format(Locale.ROOT, "measure %s (%d cells): discrete Gaussian sigma %.6g, %s", pick.label,
          pick.cells, unitSigma, rel.loss()));
    } else {
      var rel = NoisyMarginals.laplace(exact, sens, noiseParam, random);
      events.add(rel.loss());
      y = rel.y();
      observer.accept(new Measurement(pick.attrs, y, Math.sqrt(2) * rel.scale()));
      pick.weight = 1 / (2 * rel.scale() * rel.scale());
      receipt.add(String.format(Locale.ROOT, "measure %s (%d cells): discrete Laplace scale %.6g, %s", pick.label,
          pick.cells, rel.scale(), rel.loss()));
    }
    double[] fitted = project ? MwemGenerator.simplexProjection(y, nHat) : y;
    pick.target = new double[y.length];
    for (int c = 0; c < y.length; c++) {
      pick.target[c] = fitted[c] / nHat;
    }
  }

  /**
   * The share of the budget after the count spent on the 1-ways: {@value #SMALL_ONE_WAY_SHARE} for
   * a small budget (ρ &lt; {@value #SMALL_RHO}, or ε &lt; {@value #SMALL_EPSILON} with Laplace noise),
   * else {@value #ONE_WAY_SHARE}. Public.
   */
  private double oneWayShare() {
    return smallBudget(noise, budgetValue) ? SMALL_ONE_WAY_SHARE : ONE_WAY_SHARE;
  }

  /** Whether a budget (ρ for Gaussian noise, ε for Laplace) is small in the sense of {@link #SMALL_RHO}. */
  static boolean smallBudget(Noise noise, double budgetValue) {
    return noise == Noise.GAUSSIAN ? budgetValue < SMALL_RHO : budgetValue < SMALL_EPSILON;
  }

  /**
   * Each attribute's part of the 1-ways' budget, summing to at most 1: proportional to |a|^(2/3)
   * for Gaussian noise (minimizing Σ|a|·σ_a for a fixed Σρ_a, as in AIM) and to |a|^(1/2) for
   * Laplace (minimizing Σ|a|/ε_a for a fixed Σε_a). Public (the domain's cardinalities).
   */
  private double[] oneWayWeights(int[] card) {
    double[] w = new double[card.length];
    double norm = 0;
    for (int a = 0; a < card.length; a++) {
      w[a] = noise == Noise.GAUSSIAN ? Math.cbrt((double) card[a] * card[a]) : Math.sqrt(card[a]);
      norm += w[a];
    }
    for (int a = 0; a < card.length; a++) {
      w[a] /= norm;
    }
    return w;
  }

  private void checkBudget(List<PrivacyLoss> events) {
    double spent = noise == Noise.GAUSSIAN ? SynthesisBudget.totalRho(events)
        : events.stream().mapToDouble(e -> ((PureDp) e).epsilon()).sum();
    if (spent > budgetValue) {
      throw new IllegalStateException("internal budget error: spent " + spent + " exceeds " + budgetValue);
    }
  }

  /** Softmax per attribute block, per row. */
  private static void softmax(double[] theta, double[] prob, int rows, int[] offset) {
    int width = offset[offset.length - 1];
    for (int i = 0; i < rows; i++) {
      for (int a = 0; a + 1 < offset.length; a++) {
        int from = i * width + offset[a];
        int to = i * width + offset[a + 1];
        double max = Double.NEGATIVE_INFINITY;
        for (int x = from; x < to; x++) {
          max = Math.max(max, theta[x]);
        }
        double s = 0;
        for (int x = from; x < to; x++) {
          prob[x] = Math.exp(theta[x] - max);
          s += prob[x];
        }
        for (int x = from; x < to; x++) {
          prob[x] /= s;
        }
      }
    }
  }

  /**
   * The relaxed table's normalized answer: (1/n′)·Σ_i Π_j p_{i,a_j}[cell_j], times the row's expected
   * column weight Σ_v p_{i,col}[v]·w[v] for a sum.
   */
  private static double[] evaluate(ForkJoinPool pool, Marginal m, double[] prob, int rows, int[] offset, int width) {
    int chunks = Math.max(1, Math.min(pool.getParallelism() * 4, rows));
    double[][] parts = new double[chunks][];
    pool.submit(() -> IntStream.range(0, chunks).parallel().forEach(ch -> {
      double[] acc = new double[m.cells];
      int k = m.attrs.length;
      for (int i = ch * rows / chunks; i < (ch + 1) * rows / chunks; i++) {
        double factor = columnFactor(m, prob, i, offset, width);
        for (int c = 0; c < m.cells; c++) {
          double v = factor;
          for (int j = 0; j < k; j++) {
            v *= prob[i * width + offset[m.attrs[j]] + m.digit[j][c]];
          }
          acc[c] += v;
        }
      }
      parts[ch] = acc;
    })).join();
    double[] out = new double[m.cells];
    for (double[] p : parts) {
      for (int c = 0; c < out.length; c++) {
        out[c] += p[c] / rows;
      }
    }
    return out;
  }

  /** Row i's expected column weight for a sum, 1 otherwise. */
  private static double columnFactor(Marginal m, double[] prob, int i, int[] offset, int width) {
    if (m.column < 0) {
      return 1;
    }
    int base = i * width + offset[m.column];
    double s = 0;
    for (int v = 0; v < m.columnWeight.length; v++) {
      s += prob[base + v] * m.columnWeight[v];
    }
    return s;
  }

  /** Adam on the weighted squared error of the measured marginals, warm-started. */
  private void fit(ForkJoinPool pool, List<Marginal> measured, double[] theta, double[] prob, Adam adam, int rows,
      int[] offset, int width, double nHat) {
    double[] grad = new double[theta.length];
    for (int it = 0; it < iterations; it++) {
      Arrays.fill(grad, 0);
      for (Marginal m : measured) {
        double[] est = evaluate(pool, m, prob, rows, offset, width);
        double[] diff = new double[m.cells];
        // Loss term w·n̂²·‖m − y/n̂‖² (counts scale), normalized by the number of cells fitted.
        double scale = 2 * m.weight * nHat * nHat / rows;
        for (int c = 0; c < diff.length; c++) {
          diff[c] = scale * (est[c] - m.target[c]);
        }
        int k = m.attrs.length;
        pool.submit(() -> IntStream.range(0, rows).parallel().forEach(i -> {
          double[] prefix = new double[k + 1];
          double factor = columnFactor(m, prob, i, offset, width);
          for (int c = 0; c < m.cells; c++) {
            prefix[0] = factor;
            for (int j = 0; j < k; j++) {
              prefix[j + 1] = prefix[j] * prob[i * width + offset[m.attrs[j]] + m.digit[j][c]];
            }
            double suffix = 1;
            for (int j = k - 1; j >= 0; j--) {
              int idx = i * width + offset[m.attrs[j]] + m.digit[j][c];
              grad[idx] += diff[c] * prefix[j] * suffix;
              suffix *= prob[idx];
            }
            if (m.column >= 0) {
              // d/dp_{i,col}[v] of factor·Π_j p: the conjunction's product times w[v].
              double conj = 1;
              for (int j = 0; j < k; j++) {
                conj *= prob[i * width + offset[m.attrs[j]] + m.digit[j][c]];
              }
              int base = i * width + offset[m.column];
              for (int v = 0; v < m.columnWeight.length; v++) {
                grad[base + v] += diff[c] * conj * m.columnWeight[v];
              }
            }
          }
        })).join();
      }
      // Back through the softmax of every block: dθ = p ⊙ (g − ⟨g, p⟩).
      for (int i = 0; i < rows; i++) {
        for (int a = 0; a + 1 < offset.length; a++) {
          int from = i * width + offset[a];
          int to = i * width + offset[a + 1];
          double dot = 0;
          for (int x = from; x < to; x++) {
            dot += grad[x] * prob[x];
          }
          for (int x = from; x < to; x++) {
            grad[x] = prob[x] * (grad[x] - dot);
          }
        }
      }
      adam.step(theta, grad);
      softmax(theta, prob, rows, offset);
    }
  }

  /** Adam (Kingma &amp; Ba 2015) with the usual constants, on normalized gradients. */
  private static final class Adam {
    private final double[] m;
    private final double[] v;
    private int t;
    private static final double RATE = 0.05;

    Adam(int size) {
      m = new double[size];
      v = new double[size];
    }

    void step(double[] x, double[] g) {
      t++;
      double b1 = 0.9;
      double b2 = 0.999;
      double c1 = 1 - Math.pow(b1, t);
      double c2 = 1 - Math.pow(b2, t);
      for (int i = 0; i < x.length; i++) {
        m[i] = b1 * m[i] + (1 - b1) * g[i];
        v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
        x[i] -= RATE * (m[i] / c1) / (Math.sqrt(v[i] / c2) + 1e-8);
      }
    }
  }
}
