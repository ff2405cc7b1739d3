package org.privet.mechanisms.truncation;

import org.privet.accounting.PureDp;
import org.privet.mechanisms.ExponentialMechanism;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.random.RandomSource;

/**
 * Truncation at a threshold read from a DP estimate of the per-unit contribution distribution:
 * the alternative to {@link R2TMechanism} that issue 25 asks to measure against it.
 *
 * <ol>
 *   <li><b>Threshold</b> (ε<sub>q</sub> = share·ε, rounded down): the exponential mechanism (McSherry
 *       &amp; Talwar 2007; exact, {@link ExponentialMechanism}) over the candidates τ = 2<sup>k</sup>,
 *       k = 0..⌈log<sub>2</sub> GS⌉, with utility u(τ) = −|#{u : c<sub>u</sub> ≤ τ} − p·n| (n units).
 *       This is the DP p-quantile of the contributions rounded up to a power of two (Smith 2011,
 *       "Privacy-preserving statistical estimation with optimal convergence rates", on a log grid).
 *       Adding or removing one unit changes #{c ≤ τ} − p·n by 1 − p or by −p, so
 *       |Δu| ≤ max(p, 1 − p) &lt; 1: sensitivity 1 is declared.
 *   <li><b>Sum</b> (ε<sub>s</sub> = ε − ε<sub>q</sub>, rounded down): Q(I, τ) = Σ
 *       min(c<sub>u</sub>, τ) plus discrete Laplace noise of sensitivity τ (exact, {@link
 *       GeometricMechanism}); no bias is subtracted, so the release estimates Q(I, τ) unbiasedly.
 * </ol>
 *
 * <p>Sequential composition gives ε<sub>q</sub> + ε<sub>s</sub> ≤ ε; the threshold is chosen
 * before the sum reads the data again, so the sum's sensitivity τ is fixed when it is charged.
 * The argument is in {@code docs/proofs/r2t-truncation.md}. Defaults: p = 0.99 and share = 0.1 (a
 * rank error of ln(L)/ε<sub>q</sub> units is negligible next to n for the datasets this targets;
 * measured in {@code docs/benchmarks.md}, "Issue 25 groundwork").
 *
 * <p>It needs per-unit contributions, so it applies to the self-join-free case only. Immutable and
 * thread-safe.
 */
public final class QuantileThresholdMechanism {
  private final double epsilon;
  private final double quantile;
  private final double beta;
  private final int maxExponent;
  private final double sumEpsilon;
  private final ExponentialMechanism threshold;
  private final RandomSource random;

  private QuantileThresholdMechanism(Builder b) {
    this.epsilon = TruncationChecks.epsilon(b.epsilon);
    long gs = TruncationChecks.globalSensitivity(b.globalSensitivity, 1);
    this.quantile = b.quantile;
    this.beta = b.beta;
    this.random = b.random;
    this.maxExponent = TruncationChecks.ceilLog2(gs);
    double quantileEpsilon = TruncationChecks.shareDownward(epsilon, b.share);
    this.sumEpsilon = TruncationChecks.remainderDownward(epsilon, quantileEpsilon);
    this.threshold =
        ExponentialMechanism.builder()
            .epsilon(quantileEpsilon)
            .sensitivity(1.0)
            .randomSource(random)
            .build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Chooses τ privately, then releases the noisy truncated sum at τ. Total. */
  public TruncationResult release(UnitContributions contributions) {
    TruncationChecks.required("contributions", contributions);
    double target = quantile * contributions.units();
    double[] utilities = new double[maxExponent + 1];
    for (int k = 0; k <= maxExponent; k++) {
      utilities[k] = -Math.abs(contributions.countAtMost(1L << k) - target);
    }
    long tau = 1L << threshold.select(utilities);
    GeometricMechanism sum =
        GeometricMechanism.builder().epsilon(sumEpsilon).sensitivity(tau).randomSource(random).build();
    long value = sum.release(contributions.evaluate(tau));
    return new TruncationResult(
        value,
        tau,
        privacyLoss(),
        sum.confidenceInterval(value, beta),
        TruncationResult.Target.TRUNCATED_QUERY);
  }

  /** Pure ε-DP: the threshold's ε<sub>q</sub> plus the sum's ε<sub>s</sub>, at most ε. */
  public PureDp privacyLoss() {
    return new PureDp(epsilon);
  }

  /** ε<sub>s</sub>, the part of ε spent on the sum (the rest chose the threshold). */
  public double sumEpsilon() {
    return sumEpsilon;
  }

  /**
   * Validating builder: ε and the public global-sensitivity bound GS (the largest candidate
   * threshold is 2^⌈log2 GS⌉) are required; p defaults to 0.99, the share of ε spent on the
   * threshold to 0.1, β (for the interval) to 0.1, the source to the CSPRNG.
   */
  public static final class Builder {
    private double epsilon = Double.NaN;
    private long globalSensitivity = -1;
    private double quantile = 0.99;
    private double share = 0.1;
    private double beta = 0.1;
    private RandomSource random = RandomSource.secure();

    private Builder() {}

    public Builder epsilon(double epsilon) {
      this.epsilon = TruncationChecks.epsilon(epsilon);
      return this;
    }

    public Builder globalSensitivity(long globalSensitivity) {
      this.globalSensitivity = TruncationChecks.globalSensitivity(globalSensitivity, 1);
      return this;
    }

    /** The quantile p of the per-unit contributions read as the threshold, in (0, 1). */
    public Builder quantile(double quantile) {
      this.quantile = TruncationChecks.openUnit("quantile", quantile);
      return this;
    }

    /** The fraction of ε spent choosing the threshold, in (0, 1). */
    public Builder thresholdShare(double share) {
      this.share = TruncationChecks.openUnit("thresholdShare", share);
      return this;
    }

    /** The failure probability of the interval, in (0, 1). */
    public Builder beta(double beta) {
      this.beta = TruncationChecks.openUnit("beta", beta);
      return this;
    }

    public Builder randomSource(RandomSource random) {
      this.random = TruncationChecks.random(random);
      return this;
    }

    /** @throws IllegalArgumentException if ε or the global sensitivity was not set */
    public QuantileThresholdMechanism build() {
      return new QuantileThresholdMechanism(this);
    }
  }
}
