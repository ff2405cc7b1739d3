package org.privet.synth;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.random.RandomSource;

/**
 * DP synthetic data: releases a table D′ whose low-order marginals match the input's, at a privacy
 * cost fixed before the data is read.
 *
 * <pre>{@code
 * Synthesizer s = Synthesizer.builder().method(Method.AIM).epsilon(1.0).delta(1e-9).build();
 * PrivacyLoss cost = s.privacyLoss();   // charge this once, then:
 * SynthesisResult r = s.synthesize(table);
 * }</pre>
 *
 * <p>Neighbouring relation: add/remove one row ({@link
 * org.privet.accounting.NeighbouringRelation#ADD_REMOVE_ONE}); the number of rows is itself
 * protected (estimated from noisy measurements). The domain is public metadata.
 *
 * <ul>
 *   <li>{@link Method#AIM}: {@link AimGenerator} under ρ-zCDP with ρ the largest value certified to
 *       imply the requested (ε, δ) (requires δ &gt; 0). {@link #privacyLoss()} is {@code Zcdp(ρ)}.
 *   <li>{@link Method#MST}: {@link MstGenerator}, same ρ and cost as AIM.
 *   <li>{@link Method#MWEM}: {@link MwemGenerator} under pure ε-DP (δ unused). {@link
 *       #privacyLoss()} is {@code PureDp(ε)}.
 * </ul>
 *
 * <p>Privacy argument: docs/proofs/synthetic-data.md. Immutable; one instance may run several
 * syntheses, each costing {@link #privacyLoss()}.
 */
public final class Synthesizer {

  /** The generator. */
  public enum Method {
    /** McKenna et al. 2022, adaptive marginal selection + graphical-model estimation, zCDP. */
    AIM,
    /** Hardt, Ligett &amp; McSherry 2012, multiplicative weights + exponential mechanism, pure DP. */
    MWEM,
    /** McKenna, Miklau &amp; Sheldon 2021, 1-ways + private maximum spanning tree of 2-ways, zCDP. */
    MST,
    /**
     * Aydore et al. 2021, relaxed adaptive projection: noisy marginals, then Adam on a relaxed
     * table; zCDP ({@link Noise#GAUSSIAN}) or pure DP ({@link Noise#LAPLACE}).
     */
    RAP
  }

  /** The noise of RAP's measurements, and so its privacy measure. */
  public enum Noise {
    /** Discrete Gaussian noise, accounted in ρ-zCDP (needs δ &gt; 0). */
    GAUSSIAN,
    /** Discrete Laplace noise, pure ε-DP (δ unused). */
    LAPLACE
  }

  private final Method method;
  private final double epsilon;
  private final double delta;
  private final Workload workload;
  private final QueryWorkload queries;
  private final RandomSource random;
  private final Consumer<String> progress;
  private final double maxModelCells;
  private final int rounds;
  private final int estimationIterations;
  private final double rho;
  private final boolean compressDomain;

  private final Noise noise;
  private final int roundSelections;
  private final int syntheticRows;
  private final int threads;

  private Synthesizer(Builder b) {
    compressDomain = b.compressDomain;
    noise = b.noise;
    roundSelections = b.roundSelections;
    syntheticRows = b.syntheticRows;
    threads = b.threads;
    method = b.method;
    epsilon = b.epsilon;
    delta = b.delta;
    workload = b.workload;
    queries = b.queries;
    random = b.random;
    progress = b.progress;
    maxModelCells = b.maxModelCells;
    rounds = b.rounds;
    estimationIterations = b.estimationIterations;
    rho = isPure(method, noise) ? Double.NaN : org.privet.accounting.ZcdpConversion.largestRho(epsilon, delta);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** What one call of {@link #synthesize} costs, to be charged once before it runs. */
  public PrivacyLoss privacyLoss() {
    return isPure(method, noise) ? new PureDp(epsilon) : new Zcdp(rho);
  }

  /** {@link #privacyLoss()} as (ε, δ)-DP, by the accounting package (never above the request). */
  public ApproxDp approxDp() {
    return isPure(method, noise)
        ? BasicAccountant.INSTANCE.compose(List.of(privacyLoss()), 0.0)
        : SynthesisBudget.compose(List.of(privacyLoss()), delta);
  }

  public Method method() {
    return method;
  }

  private static boolean isPure(Method method, Noise noise) {
    return method == Method.MWEM || (method == Method.RAP && noise == Noise.LAPLACE);
  }

  /**
   * Runs the generator on a table (its domain must match the workload's, if one was set). Total in
   * the rows: an empty table is synthesized like any other (the row count is protected and only
   * its noisy estimate shapes the output), so no data can make a paid run fail.
   *
   * @throws IllegalArgumentException if the workload names an attribute outside the table's domain
   *     (public information)
   */
  public SynthesisResult synthesize(Table data) {
    Objects.requireNonNull(data, "data");
    Workload w = queries != null ? queries.marginalWorkload()
        : workload != null ? workload : Workload.allKWay(data.domain(), Math.min(3, data.domain().size()));
    for (int[] q : w.marginals()) {
      for (int a : q) {
        if (a < 0 || a >= data.domain().size()) {
          throw new IllegalArgumentException("workload: attribute index out of range for the table's domain");
        }
      }
    }
    if (queries != null) {
      for (QueryWorkload.Query q : queries.queries()) {
        for (int j = 0; j < q.codes().length; j++) {
          if (q.codes()[j] < 0 || q.codes()[j] >= data.domain().attribute(q.attrs()[j]).size()) {
            throw new IllegalArgumentException("workload: a condition's value is out of range for the table's domain");
          }
        }
        if (q.kind() == QueryWorkload.Kind.MEAN
            && data.domain().attribute(q.target()).kind() == Attribute.Kind.CATEGORICAL) {
          throw new IllegalArgumentException("workload: a mean's column is categorical in the table's domain");
        }
      }
    }
    if (method == Method.AIM) {
      return new AimGenerator(rho, w, random, progress, maxModelCells, estimationIterations,
          5 * estimationIterations, compressDomain).run(data, privacyLoss());
    }
    if (method == Method.RAP) {
      RapGenerator.Noise n = noise == Noise.GAUSSIAN ? RapGenerator.Noise.GAUSSIAN : RapGenerator.Noise.LAPLACE;
      return new RapGenerator(n, noise == Noise.GAUSSIAN ? rho : epsilon, w, queries, random, progress, rounds,
          roundSelections, syntheticRows, estimationIterations, maxModelCells, threads).run(data, privacyLoss());
    }
    if (method == Method.MST) {
      return new MstGenerator(rho, random, progress, estimationIterations).run(data, privacyLoss());
    }
    return new MwemGenerator(epsilon, rounds, w, random, progress, maxModelCells).run(data, privacyLoss());
  }

  /** Validating builder: every parameter is checked when set, conflicts at {@link #build()}. */
  public static final class Builder {
    private Method method = Method.AIM;
    private double epsilon = Double.NaN;
    private double delta = Double.NaN;
    private Workload workload;
    private QueryWorkload queries;
    private RandomSource random = RandomSource.secure();
    private Consumer<String> progress = s -> { };
    private double maxModelCells = Double.NaN;
    private int rounds = MwemGenerator.DEFAULT_ROUNDS;
    private int estimationIterations = 100;
    private boolean compressDomain = true;
    private Noise noise = Noise.GAUSSIAN;
    private int roundSelections = 4;
    private int syntheticRows = 200;
    private int threads = 2;
    private boolean roundsSet;
    private boolean roundSelectionsSet;
    private boolean iterationsSet;
    private boolean cellsSet;

    private Builder() {}

    public Builder method(Method method) {
      this.method = Objects.requireNonNull(method, "method");
      return this;
    }

    /** ε &gt; 0 and finite; the smallest accepted is 1e-4. */
    public Builder epsilon(double epsilon) {
      if (!(epsilon >= 1e-4) || Double.isInfinite(epsilon)) {
        throw new IllegalArgumentException("epsilon must be finite and at least 1e-4, was " + epsilon);
      }
      this.epsilon = epsilon;
      return this;
    }

    /** δ in [0, 1); AIM needs δ &gt; 0. */
    public Builder delta(double delta) {
      if (!(delta >= 0 && delta < 1)) {
        throw new IllegalArgumentException("delta must be in [0, 1), was " + delta);
      }
      this.delta = delta;
      return this;
    }

    /** The marginals the output should preserve (default: all 3-way marginals). Public. */
    public Builder workload(Workload workload) {
      this.workload = Objects.requireNonNull(workload, "workload");
      return this;
    }

    /**
     * A query file's workload (public): RAP measures its counting queries, and each conditional
     * average as a noisy count and a noisy bounded sum, beside the marginals it lists; AIM, MST and
     * MWEM preserve the marginals it reads ({@link QueryWorkload#marginalWorkload()}). Replaces
     * {@link #workload}.
     */
    public Builder queries(QueryWorkload queries) {
      this.queries = Objects.requireNonNull(queries, "queries");
      return this;
    }

    public Builder randomSource(RandomSource random) {
      this.random = Objects.requireNonNull(random, "randomSource");
      return this;
    }

    /** Receives one line per round (on the CLI: stderr). Messages contain no data values. */
    public Builder progress(Consumer<String> progress) {
      this.progress = Objects.requireNonNull(progress, "progress");
      return this;
    }

    /**
     * AIM: the largest graphical model, in cells (default 2e6); RAP: the largest candidate marginal
     * (default 2000); MWEM: the largest block of the
     * factored distribution (default 2^19).
     */
    public Builder maxModelCells(double cells) {
      if (!(cells >= 1000) || Double.isInfinite(cells)) {
        throw new IllegalArgumentException("maxModelCells must be at least 1000, was " + cells);
      }
      this.maxModelCells = cells;
      this.cellsSet = true;
      return this;
    }

    /**
     * MWEM and RAP: the number of rounds T (default 10 for MWEM; 8 for RAP, 4 for RAP on a marginal
     * workload with a small budget: ρ &lt; 10⁻³, or ε &lt; 0.25 with Laplace noise).
     */
    public Builder rounds(int rounds) {
      if (rounds < 1 || rounds > 10_000) {
        throw new IllegalArgumentException("rounds must be in [1, 10000], was " + rounds);
      }
      this.rounds = rounds;
      this.roundsSet = true;
      return this;
    }

    /**
     * AIM, MST: mirror-descent iterations per fit (default 100 for AIM, 1,000 for MST as in the
     * reference implementation; the final fit uses five times as many); RAP: Adam steps per round (default 40; 200 with a query file).
     */
    public Builder estimationIterations(int iterations) {
      if (iterations < 1 || iterations > 100_000) {
        throw new IllegalArgumentException("estimationIterations must be in [1, 100000], was " + iterations);
      }
      this.estimationIterations = iterations;
      this.iterationsSet = true;
      return this;
    }

    /** RAP: Gaussian (zCDP, default) or Laplace (pure ε-DP) measurements. */
    public Builder noise(Noise noise) {
      this.noise = Objects.requireNonNull(noise, "noise");
      return this;
    }

    /**
     * RAP: marginals (or queries) selected and measured per round, K (default 4, 2 with a small
     * budget as for {@link #rounds}; with a query file,
     * by default every query of the file and the 1-way marginals it reads are measured in the first
     * round, without selection, then fitted over the T rounds, when that leaves each answer's noise
     * at most 1% of the noisy row count; otherwise 4 per round, selected adaptively).
     */
    public Builder roundSelections(int k) {
      if (k < 1 || k > 1000) {
        throw new IllegalArgumentException("roundSelections must be in [1, 1000], was " + k);
      }
      this.roundSelections = k;
      this.roundSelectionsSet = true;
      return this;
    }

    /** RAP: rows n′ of the relaxed table (default 200). */
    public Builder syntheticRows(int rows) {
      if (rows < 1 || rows > 1_000_000) {
        throw new IllegalArgumentException("syntheticRows must be in [1, 1000000], was " + rows);
      }
      this.syntheticRows = rows;
      return this;
    }

    /** RAP: worker threads for the product queries (default 2). */
    public Builder threads(int threads) {
      if (threads < 1 || threads > 256) {
        throw new IllegalArgumentException("threads must be in [1, 256], was " + threads);
      }
      this.threads = threads;
      return this;
    }

    /**
     * AIM: whether to merge the values whose noisy 1-way count is below 3σ into one "other" value
     * before the adaptive rounds ({@link DomainCompression}; default true).
     */
    public Builder compressDomain(boolean compress) {
      this.compressDomain = compress;
      return this;
    }

    /**
     * @throws IllegalArgumentException if ε is unset, or AIM is chosen without a positive δ
     */
    public Synthesizer build() {
      if (Double.isNaN(epsilon)) {
        throw new IllegalArgumentException("epsilon must be set");
      }
      if (Double.isNaN(delta)) {
        delta = isPure(method, noise) ? 0.0 : Double.NaN;
      }
      if (method == Method.MST && !iterationsSet) {
        // The reference implementation's 1,000 (selection fit) and 5,000 (final fit).
        estimationIterations = 1000;
      }
      if (method == Method.RAP) {
        // A marginal workload with a small budget: fewer, larger selections (4 rounds of 2).
        boolean small = queries == null && !Double.isNaN(delta) && RapGenerator.smallBudget(
            noise == Noise.GAUSSIAN ? RapGenerator.Noise.GAUSSIAN : RapGenerator.Noise.LAPLACE,
            noise == Noise.GAUSSIAN && delta > 0 ? org.privet.accounting.ZcdpConversion.largestRho(epsilon, delta)
                : epsilon);
        rounds = roundsSet ? rounds : small ? 4 : 8;
        // A query file: K = 0 lets RAP measure the whole pool when the budget allows, with more Adam steps.
        roundSelections = roundSelectionsSet ? roundSelections : queries != null ? 0 : small ? 2 : 4;
        estimationIterations = iterationsSet ? estimationIterations : queries != null ? 200 : 40;
        maxModelCells = cellsSet ? maxModelCells : 2_000;
      }
      if (!isPure(method, noise) && !(delta > 0)) {
        throw new IllegalArgumentException("delta must be positive for method " + method
            + " (zCDP); use MWEM for pure DP");
      }
      if (Double.isNaN(maxModelCells)) {
        maxModelCells = method == Method.AIM ? AimGenerator.DEFAULT_MAX_CELLS : 1 << 19;
      }
      return new Synthesizer(this);
    }
  }
}
