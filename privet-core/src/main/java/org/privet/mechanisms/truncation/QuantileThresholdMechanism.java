package org.privet.mechanisms.truncation;

import org.privet.accounting.PureDp;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.mechanisms.SparseVector;
import org.privet.random.RandomSource;

/**
 * Truncation at a threshold read from a DP estimate of the per-unit contribution distribution: the
 * alternative to {@link R2TMechanism} that issue 25 asks to measure against it.
 *
 * <ol>
 *   <li><b>Threshold</b> (ε<sub>q</sub> = share·ε, rounded down): a DP upper quantile of the
 *       contributions, rounded up to a power of two, by AboveThreshold ({@link SparseVector}, Lyu,
 *       Su, Li 2017, Algorithm 1 with c = 1; Dwork &amp; Roth 2014, Algorithm 1). For k = 0, 1, …,
 *       ⌈log<sub>2</sub> GS⌉ it asks whether a<sub>k</sub> = #{u : c<sub>u</sub> &gt;
 *       2<sup>k</sup>}, the number of units the threshold 2<sup>k</sup> would clip, is at most m
 *       (noisily), and stops at the first yes: τ = 2<sup>k</sup> is the (n − m)-th smallest
 *       contribution (the quantile 1 − m/n) rounded up to a power of two, or 2<sup>⌈log2 GS⌉</sup>
 *       if no answer is yes. Adding or removing a unit moves every a<sub>k</sub> by 0 or 1 in the
 *       same direction: sensitivity 1, monotone queries.
 *   <li><b>Sum</b> (ε<sub>s</sub> = ε − ε<sub>q</sub>, rounded down): Q(I, τ) = Σ
 *       min(c<sub>u</sub>, τ) plus discrete Laplace noise of sensitivity τ (exact, {@link
 *       GeometricMechanism}); no bias is subtracted, so the release estimates Q(I, τ) unbiasedly.
 * </ol>
 *
 * <p>Why counting units from the top rather than a fixed fraction p: counts at thresholds above the
 * largest contribution are all n, so a rank utility −|#{c ≤ τ} − p·n| is the same for every larger
 * power of two and the exponential mechanism picks among them almost uniformly (measured: τ = 1024
 * for contributions at most 36). The first-crossing scan prefers the smallest threshold, and the
 * error-optimal τ leaves about 1/ε units above it, a rank counted from the top.
 *
 * <p>Default m = ⌈6.6/ε<sub>q</sub>⌉: the AboveThreshold noises are Laplace of scale b =
 * 2/ε<sub>q</sub> each (ε<sub>q</sub>/2 on the threshold, ε<sub>q</sub>/2 on the monotone queries),
 * and P[ν − ρ &lt; −3.3b] &lt; 0.05, so at the first power of two with no unit above it the scan
 * stops with probability above 95%.
 *
 * <p>Sequential composition gives ε<sub>q</sub> + ε<sub>s</sub> ≤ ε; the threshold is released
 * (post-processing of the AboveThreshold bits) and fixed before the sum is charged. The argument is
 * in {@code docs/proofs/r2t-truncation.md}. Default share 0.2 (measured in {@code
 * docs/benchmarks.md}, "Issue 25 groundwork"). It needs per-unit contributions, so it applies to
 * the self-join-free case only. Immutable and thread-safe.
 */
public final class QuantileThresholdMechanism {
  private final double epsilon;
  private final long unitsAbove;
  private final double beta;
  private final int maxExponent;
  private final double sumEpsilon;
  private final double quantileEpsilon;
  private final RandomSource random;

  private QuantileThresholdMechanism(Builder b) {
    this.epsilon = TruncationChecks.epsilon(b.epsilon);
    long gs = TruncationChecks.globalSensitivity(b.globalSensitivity, 1);
    this.beta = b.beta;
    this.random = b.random;
    this.maxExponent = TruncationChecks.ceilLog2(gs);
    double quantileEpsilon = TruncationChecks.shareDownward(epsilon, b.share);
    this.sumEpsilon = TruncationChecks.remainderDownward(epsilon, quantileEpsilon);
    this.quantileEpsilon = quantileEpsilon;
    this.unitsAbove = b.unitsAbove >= 0 ? b.unitsAbove : (long) Math.ceil(6.6 / quantileEpsilon);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Chooses τ privately, then releases the noisy truncated sum at τ. Total. */
  public TruncationResult release(UnitContributions contributions) {
    TruncationChecks.required("contributions", contributions);
    SparseVector scan =
        SparseVector.builder()
            .epsilon(quantileEpsilon)
            .sensitivity(1)
            .threshold(-(double) unitsAbove)
            .maxPositives(1)
            .monotone(true)
            .randomSource(random)
            .build();
    int k = 0;
    // The scan stops at the first yes: how many questions were asked is the released τ itself.
    while (k < maxExponent && !scan.test(-(double) unitsAbove(contributions, 1L << k))) {
      k++;
    }
    long tau = 1L << k;
    GeometricMechanism sum =
        GeometricMechanism.builder()
            .epsilon(sumEpsilon)
            .sensitivity(tau)
            .randomSource(random)
            .build();
    long value = sum.release(contributions.evaluate(tau));
    return new TruncationResult(
        value,
        tau,
        privacyLoss(),
        sum.confidenceInterval(value, beta),
        TruncationResult.Target.TRUNCATED_QUERY);
  }

  /** #{u : c<sub>u</sub> &gt; τ}. */
  private static long unitsAbove(UnitContributions c, long tau) {
    return c.units() - c.countAtMost(tau);
  }

  /** Pure ε-DP: the threshold's ε<sub>q</sub> plus the sum's ε<sub>s</sub>, at most ε. */
  public PureDp privacyLoss() {
    return new PureDp(epsilon);
  }

  /** m, the number of units the threshold may leave above it. */
  public long unitsAbove() {
    return unitsAbove;
  }

  /** ε<sub>s</sub>, the part of ε spent on the sum (the rest chose the threshold). */
  public double sumEpsilon() {
    return sumEpsilon;
  }

  /**
   * Validating builder: ε and the public global-sensitivity bound GS (the largest candidate
   * threshold is 2^⌈log2 GS⌉) are required; m defaults to ⌈6.6/ε<sub>q</sub>⌉, the share of ε spent
   * on the threshold to 0.2, β (for the interval) to 0.1, the source to the CSPRNG.
   */
  public static final class Builder extends TruncationBuilder<Builder> {
    private long unitsAbove = -1;
    private double share = 0.2;

    private Builder() {
      super(1);
    }

    @Override
    Builder self() {
      return this;
    }

    /**
     * m ≥ 0, the number of units the threshold may leave above it (the quantile read is 1 − m/n);
     * public, so it may not depend on the data.
     */
    public Builder unitsAbove(long unitsAbove) {
      if (unitsAbove < 0 || unitsAbove > 1L << 40) {
        throw new IllegalArgumentException("unitsAbove must be in [0, 2^40], was " + unitsAbove);
      }
      this.unitsAbove = unitsAbove;
      return this;
    }

    /** The fraction of ε spent choosing the threshold, in (0, 1). */
    public Builder thresholdShare(double share) {
      this.share = TruncationChecks.openUnit("thresholdShare", share);
      return this;
    }

    /**
     * @throws IllegalArgumentException if ε or the global sensitivity was not set
     */
    public QuantileThresholdMechanism build() {
      validate();
      return new QuantileThresholdMechanism(this);
    }
  }
}
