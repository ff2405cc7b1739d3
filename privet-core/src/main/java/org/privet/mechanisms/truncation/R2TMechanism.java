package org.privet.mechanisms.truncation;

import org.privet.accounting.PureDp;
import org.privet.mechanisms.ConfidenceInterval;
import org.privet.mechanisms.GeometricMechanism;

/**
 * R2T, "Race to the Top" (Dong, Fang, Yi, Tao, Machanavajjhala, "R2T: Instance-optimal Truncation
 * for Differentially Private Query Evaluation with Foreign Keys", SIGMOD 2022): answers a query
 * whose per-unit contribution is unbounded a priori, without the analyst choosing a truncation
 * threshold.
 *
 * <p><b>Algorithm.</b> With a public bound GS on the global sensitivity and L = ⌈log<sub>2</sub>
 * GS⌉, for j = 1..L let τ<sub>j</sub> = 2<sup>j</sup> and Q̃<sub>j</sub> = Q(I, τ<sub>j</sub>) +
 * Z<sub>j</sub> − b<sub>j</sub>, where Z<sub>j</sub> is discrete Laplace noise of scale
 * t<sub>j</sub> ≥ L·τ<sub>j</sub>/ε (exact, {@link GeometricMechanism} at ε/L with sensitivity
 * τ<sub>j</sub>) and b<sub>j</sub> = ⌈t<sub>j</sub>·ln(L/β)⌉ ≥ L·ln(L/β)·τ<sub>j</sub>/ε is the
 * paper's bias term. The release is max(Q(I, 0), max<sub>j</sub> Q̃<sub>j</sub>), with Q(I, 0) = 0.
 *
 * <p><b>Privacy.</b> Q(·, τ<sub>j</sub>) has sensitivity τ<sub>j</sub> ({@link TruncatedQuery}), so
 * each noisy value is (ε/L)-DP; L of them compose to ε (the per-threshold ε is rounded down so that
 * L·ε/L ≤ ε exactly), and subtracting public constants and taking a maximum are post-processing.
 * The argument, with the neighbour relation of the threat model (removing a unit removes every row
 * that references it, transitively), is in {@code docs/proofs/r2t-truncation.md}.
 *
 * <p><b>Accuracy</b> (R2T Theorem 5.1): with probability at least 1 − β, Q(I) −
 * 4·L·ln(L/β)·DS<sub>Q</sub>(I)/ε ≤ release ≤ Q(I), DS<sub>Q</sub>(I) being the largest
 * contribution of one unit ({@link #errorBound}). The upper half holds here exactly: each discrete
 * Laplace tail P[Z<sub>j</sub> &gt; b<sub>j</sub>] ≤ β/L, union bound.
 *
 * <p>Two public parameters extend it for the engine (issue 25): {@link Builder#gridExponent} k
 * (a SUM's contributions as integers on the grid 2<sup>−k</sup>, thresholds 2<sup>j</sup> in the
 * value's units) and {@link Builder#groupsPerUnit} L0 (one run per public group, one unit moving at
 * most L0 of them: noise at ε/(L·L0)); proofs in {@code docs/proofs/r2t-truncation.md} ("SUM",
 * "GROUP BY").
 *
 * <p>Decision: thresholds are powers of two as in the paper; the authors' code uses base 5.5 for a
 * better constant, which changes no theorem; {@link Builder#thresholdStep} offers bases
 * 2<sup>s</sup> for that comparison. Immutable and thread-safe.
 */
public final class R2TMechanism {
  private final double epsilon;
  private final long globalSensitivity;
  private final double beta;
  private final int step;
  private final int gridExponent;
  private final int groupsPerUnit;
  private final int levels;
  private final GeometricMechanism[] noise;
  private final long[] bias;

  private R2TMechanism(Builder b) {
    this.epsilon = TruncationChecks.epsilon(b.epsilon);
    this.globalSensitivity = TruncationChecks.globalSensitivity(b.globalSensitivity, 2);
    this.beta = b.beta;
    this.step = b.step;
    this.gridExponent = b.gridExponent;
    this.groupsPerUnit = b.groupsPerUnit;
    this.levels = (TruncationChecks.ceilLog2(globalSensitivity) + step - 1) / step;
    if (Math.min(step * levels, 62) + gridExponent > 62) {
      throw new IllegalArgumentException("gridExponent: GS·2^gridExponent must stay within 2^62");
    }
    // ε/(L·L0) rounded down: L thresholds, and with groups each unit moves at most L0 of the
    // per-group releases (each an independent run of this mechanism).
    double perThreshold = TruncationChecks.divideDownward(epsilon,
        Math.multiplyExact(levels, groupsPerUnit));
    this.noise = new GeometricMechanism[levels];
    this.bias = new long[levels];
    double logTerm = Math.log(levels / beta);
    for (int j = 1; j <= levels; j++) {
      GeometricMechanism m =
          GeometricMechanism.builder()
              .epsilon(perThreshold)
              .sensitivity(threshold(j))
              .randomSource(b.random)
              .build();
      noise[j - 1] = m;
      // max(0, ·): for L/β < 1 (impossible as β < 1 ≤ L) the log would be negative.
      bias[j - 1] = (long) Math.ceil(Math.max(0, m.scale() * logTerm));
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Runs R2T on {@code query}: evaluates Q(I, τ<sub>j</sub>) for every threshold, then adds the
   * noise. Total: no data-dependent exception (sums and noise saturate).
   */
  public TruncationResult release(TruncatedQuery query) {
    TruncationChecks.required("query", query);
    long[] truncated = new long[levels];
    for (int j = 1; j <= levels; j++) {
      truncated[j - 1] = query.evaluate(threshold(j));
    }
    long best = 0; // Q(I, 0)
    long bestTau = 0;
    for (int j = 1; j <= levels; j++) {
      long candidate =
          TruncationChecks.saturatingSubtract(noise[j - 1].release(truncated[j - 1]), bias[j - 1]);
      if (candidate > best) {
        best = candidate;
        bestTau = threshold(j);
      }
    }
    return new TruncationResult(
        best,
        bestTau,
        privacyLoss(),
        new ConfidenceInterval(best, Double.POSITIVE_INFINITY, 1 - beta),
        TruncationResult.Target.QUERY);
  }

  /**
   * Pure ε-DP: L thresholds at ε/L each (rounded down), composed; with {@link
   * Builder#groupsPerUnit} L0, for the releases of all groups together, one unit moving at most L0
   * of them.
   */
  public PureDp privacyLoss() {
    return new PureDp(epsilon);
  }

  /**
   * τ<sub>j</sub> = 2<sup>min(s·j, 62)</sup> (s = 1 unless {@link Builder#thresholdStep} was set),
   * times 2<sup>k</sup> with a {@link Builder#gridExponent} k, in grid units: capped at
   * 2<sup>62</sup> ≥ GS, since s·L may exceed 62 and a Java shift by 63 or 64 would wrap to a
   * negative threshold or to 1. Any public threshold keeps the privacy argument.
   */
  public long threshold(int j) {
    return 1L << Math.min(Math.min(step * checkLevel(j), 62) + gridExponent, 62);
  }

  /** L0: the number of independent runs (groups) one unit can move (1 unless set). */
  public int groupsPerUnit() {
    return groupsPerUnit;
  }

  /** k: thresholds and values are integers on the grid 2<sup>−k</sup> (0 unless set). */
  public int gridExponent() {
    return gridExponent;
  }

  /** β: the release exceeds Q(I) with probability at most β. */
  public double beta() {
    return beta;
  }

  /** L = ⌈log<sub>2</sub>(GS)/s⌉, the number of thresholds τ<sub>1</sub>..τ<sub>L</sub>. */
  public int levels() {
    return levels;
  }

  /** The discrete Laplace scale t<sub>j</sub> of threshold τ<sub>j</sub>, j = 1..L. */
  public double noiseScale(int j) {
    return noise[checkLevel(j) - 1].scale();
  }

  /** The bias b<sub>j</sub> subtracted at threshold τ<sub>j</sub>, j = 1..L. */
  public long bias(int j) {
    return bias[checkLevel(j) - 1];
  }

  /**
   * R2T Theorem 5.1's error bound 4·L·L0·ln(L/β)·DS/ε (L0 = {@link #groupsPerUnit}, 1 for one
   * release) for an instance whose downward sensitivity
   * (largest single-unit contribution) is {@code downwardSensitivity}: a planning formula for a
   * hypothetical DS, since the real DS is private.
   */
  public double errorBound(long downwardSensitivity) {
    if (downwardSensitivity < 0) {
      throw new IllegalArgumentException("downwardSensitivity must be non-negative");
    }
    return 4 * levels * groupsPerUnit * Math.log(levels / beta) * downwardSensitivity / epsilon;
  }

  private int checkLevel(int j) {
    if (j < 1 || j > levels) {
      throw new IllegalArgumentException("j must be in [1, " + levels + "], was " + j);
    }
    return j;
  }

  /**
   * Validating builder: ε and the global-sensitivity bound GS (public, in [2, 2^62]) are required;
   * β defaults to 0.1 (the paper's experiments), the source to the CSPRNG.
   */
  public static final class Builder extends TruncationBuilder<Builder> {
    private int step = 1;
    private int gridExponent = 0;
    private int groupsPerUnit = 1;

    private Builder() {
      super(2);
    }

    @Override
    Builder self() {
      return this;
    }

    /**
     * s ∈ [1, 8]: thresholds τ<sub>j</sub> = 2<sup>s·j</sup> instead of 2<sup>j</sup>. The paper
     * uses s = 1; its authors' code uses base 5.5 (≈ 2<sup>2.5</sup>), since any constant base
     * keeps the theorems up to the constant and fewer levels cost less ε each. Default 1.
     */
    public Builder thresholdStep(int step) {
      if (step < 1 || step > 8) {
        throw new IllegalArgumentException("thresholdStep must be in [1, 8], was " + step);
      }
      this.step = step;
      return this;
    }

    /**
     * k ∈ [0, 40]: contributions are fixed-point integers on the grid 2<sup>−k</sup> (a SUM's
     * clamped values scaled by 2<sup>k</sup>), GS stays in value units, and the thresholds are
     * τ<sub>j</sub> = 2<sup>s·j</sup> value units = 2<sup>s·j+k</sup> grid units; the noise,
     * bias and release are in grid units (divide by 2<sup>k</sup>). Privacy is the same argument
     * (Q(·, τ) has sensitivity τ in any unit). Default 0 (counts). GS·2<sup>k</sup> must stay
     * within 2<sup>62</sup>.
     */
    public Builder gridExponent(int k) {
      if (k < 0 || k > 40) {
        throw new IllegalArgumentException("gridExponent must be in [0, 40], was " + k);
      }
      this.gridExponent = k;
      return this;
    }

    /**
     * L0 ∈ [1, 2^20]: the mechanism is run once per group (GROUP BY), with fresh noise each time,
     * on Q<sub>g</sub>(I, τ) = Σ<sub>u</sub> min(c<sub>u,g</sub>, τ), and one unit has
     * contributions in at most L0 groups. Each threshold's noise is then at ε/(L·L0), so the at
     * most L0 runs one unit moves compose to ε ({@code docs/proofs/r2t-truncation.md}, "GROUP
     * BY"). Default 1 (one scalar release).
     */
    public Builder groupsPerUnit(int l0) {
      if (l0 < 1 || l0 > (1 << 20)) {
        throw new IllegalArgumentException("groupsPerUnit must be in [1, 2^20], was " + l0);
      }
      this.groupsPerUnit = l0;
      return this;
    }

    /**
     * @throws IllegalArgumentException if ε or the global sensitivity was not set
     */
    public R2TMechanism build() {
      validate();
      return new R2TMechanism(this);
    }
  }
}
