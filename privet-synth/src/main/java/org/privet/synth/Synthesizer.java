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
    MST
  }

  private final Method method;
  private final double epsilon;
  private final double delta;
  private final Workload workload;
  private final RandomSource random;
  private final Consumer<String> progress;
  private final double maxModelCells;
  private final int rounds;
  private final int estimationIterations;
  private final double rho;
  private final boolean compressDomain;

  private Synthesizer(Builder b) {
    compressDomain = b.compressDomain;
    method = b.method;
    epsilon = b.epsilon;
    delta = b.delta;
    workload = b.workload;
    random = b.random;
    progress = b.progress;
    maxModelCells = b.maxModelCells;
    rounds = b.rounds;
    estimationIterations = b.estimationIterations;
    rho = method == Method.MWEM ? Double.NaN : SynthesisBudget.rhoFor(epsilon, delta);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** What one call of {@link #synthesize} costs, to be charged once before it runs. */
  public PrivacyLoss privacyLoss() {
    return method == Method.MWEM ? new PureDp(epsilon) : new Zcdp(rho);
  }

  /** {@link #privacyLoss()} as (ε, δ)-DP, by the accounting package (never above the request). */
  public ApproxDp approxDp() {
    return method == Method.MWEM
        ? BasicAccountant.INSTANCE.compose(List.of(privacyLoss()), 0.0)
        : SynthesisBudget.compose(List.of(privacyLoss()), delta);
  }

  public Method method() {
    return method;
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
    Workload w = workload != null ? workload : Workload.allKWay(data.domain(), Math.min(3, data.domain().size()));
    for (int[] q : w.marginals()) {
      for (int a : q) {
        if (a < 0 || a >= data.domain().size()) {
          throw new IllegalArgumentException("workload: attribute index out of range for the table's domain");
        }
      }
    }
    if (method == Method.AIM) {
      return new AimGenerator(rho, w, random, progress, maxModelCells, estimationIterations,
          5 * estimationIterations, compressDomain).run(data, privacyLoss());
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
    private RandomSource random = RandomSource.secure();
    private Consumer<String> progress = s -> { };
    private double maxModelCells = Double.NaN;
    private int rounds = MwemGenerator.DEFAULT_ROUNDS;
    private int estimationIterations = 100;
    private boolean compressDomain = true;

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
     * AIM: the largest graphical model, in cells (default 2e6); MWEM: the largest block of the
     * factored distribution (default 2^19).
     */
    public Builder maxModelCells(double cells) {
      if (!(cells >= 1000) || Double.isInfinite(cells)) {
        throw new IllegalArgumentException("maxModelCells must be at least 1000, was " + cells);
      }
      this.maxModelCells = cells;
      return this;
    }

    /** MWEM: the number of rounds T (default 30). */
    public Builder rounds(int rounds) {
      if (rounds < 1 || rounds > 10_000) {
        throw new IllegalArgumentException("rounds must be in [1, 10000], was " + rounds);
      }
      this.rounds = rounds;
      return this;
    }

    /** AIM: mirror-descent iterations per round (default 100; the final fit uses five times as many). */
    public Builder estimationIterations(int iterations) {
      if (iterations < 1 || iterations > 100_000) {
        throw new IllegalArgumentException("estimationIterations must be in [1, 100000], was " + iterations);
      }
      this.estimationIterations = iterations;
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
        delta = method == Method.MWEM ? 0.0 : Double.NaN;
      }
      if (method != Method.MWEM && !(delta > 0)) {
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
