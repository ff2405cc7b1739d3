package org.privet.mechanisms;

import java.math.BigInteger;
import java.util.Objects;
import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;

/**
 * Report noisy max: add independent noise to every utility and return the index of the largest
 * noisy value (Dwork &amp; Roth 2014, Sec. 3.3, Claim 3.9).
 *
 * <ul>
 *   <li>{@link Noise#LAPLACE}: Laplace noise of scale 2Δu/ε, or Δu/ε for
 *       {@linkplain SelectionBuilder#monotone(boolean) monotone} utilities such as counts
 *       (Dwork &amp; Roth Claim 3.9). To resist floating-point attacks (Mironov 2012) the noise is
 *       the <em>discrete</em> Laplace distribution on the integer grid of utilities (spacing h ≤
 *       Δu/2<sup>10</sup>), sampled exactly (Canonne, Kamath, Steinke 2020, Algorithm 2); ties go
 *       to the lowest index. This discrete variant is ε-DP by the same threshold argument; see
 *       {@code docs/proofs/report-noisy-max.md}.
 *   <li>{@link Noise#GUMBEL}: Gumbel noise of scale 2Δu/ε (Δu/ε monotone). By the Gumbel-max trick
 *       the output has exactly the exponential mechanism's distribution (the Gumbel-max trick, Yellott
 *       1977; used for DP selection by Durfee &amp; Rogers 2019, "Practical differentially private
 *       top-k selection with pay-what-you-get composition"), so it is released by {@link ExponentialMechanism}'s exact sampler rather than
 *       by adding floating-point Gumbel noise.
 * </ul>
 *
 * <p>Both are ε-DP. Accuracy: with probability at least 1 − β the output's utility is at least
 * max u − {@link #utilityErrorBound}. Immutable and thread-safe (if its {@link RandomSource} is).
 */
public final class ReportNoisyMax extends SelectionMechanism {

  /** The noise distribution added to each utility. */
  public enum Noise {
    /** Discrete Laplace noise on the utility grid (Laplace report-noisy-max). */
    LAPLACE,
    /** Gumbel noise: the exponential mechanism. */
    GUMBEL
  }

  private final Noise noise;
  /** Discrete Laplace scale t = c·Δint/ε̃ = noiseNum/noiseDen, in grid units. */
  private final long noiseNum;
  private final long noiseDen;

  private ReportNoisyMax(SelectionScale scale, Noise noise) {
    super(scale);
    this.noise = noise;
    this.noiseNum = scale.rateDen; // c·Δint·2^j
    this.noiseDen = scale.rateNum; // ε̃·2^j
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the 0-based index of the candidate with the largest noisy utility.
   *
   * @param utilities one finite utility per candidate (for example counts)
   * @throws IllegalArgumentException if {@code utilities} is empty or holds NaN or an infinity
   */
  @Override
  public int select(double[] utilities) {
    if (noise == Noise.GUMBEL) {
      return scale.weights(utilities).sampleProportional(scale.random);
    }
    long[] gaps = scale.grid.gaps(SelectionScale.requireUtilities(utilities));
    RandomSource random = scale.random;
    int best = 0;
    long bestValue = 0;
    BigInteger bestBig = null; // used once any noisy value left the long range
    for (int i = 0; i < gaps.length; i++) {
      long z = DiscreteLaplace.sample(random, noiseNum, noiseDen);
      long value = z - gaps[i];
      boolean overflow = ((z ^ gaps[i]) & (z ^ value)) < 0;
      if (overflow || bestBig != null) {
        BigInteger exact = BigInteger.valueOf(z).subtract(BigInteger.valueOf(gaps[i]));
        if (bestBig == null) {
          bestBig = BigInteger.valueOf(bestValue);
        }
        if (i == 0 || exact.compareTo(bestBig) > 0) {
          best = i;
          bestBig = exact;
        }
      } else if (i == 0 || value > bestValue) {
        best = i;
        bestValue = value;
      }
    }
    return best;
  }

  /**
   * A bound b with P[u(output) ≥ max u − b] ≥ 1 − β. Gumbel: the exponential mechanism's
   * (c·Δ'/ε̃)·ln(k/β) + h. Laplace: every one of the k discrete Laplace draws satisfies |Z| &lt;
   * t·ln(2k/β) except with probability β (P[|Z| ≥ m] ≤ 2e<sup>−m/t</sup>), so b =
   * 2·(c·Δ'/ε̃)·ln(2k/β) + h. Rounded upward.
   */
  @Override
  public double utilityErrorBound(int candidates, double beta) {
    if (noise == Noise.GUMBEL) {
      return scale.exponentialErrorBound(candidates, beta);
    }
    return scale.errorBound(candidates, beta, 2.0, 2.0);
  }

  public Noise noise() {
    return noise;
  }

  /** Validating builder; ε and the sensitivity are required, the noise defaults to Laplace. */
  public static final class Builder extends SelectionBuilder<Builder> {
    private Noise noise = Noise.LAPLACE;

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /** The noise distribution (default {@link Noise#LAPLACE}). */
    public Builder noise(Noise noise) {
      this.noise = Objects.requireNonNull(noise, "noise");
      return this;
    }

    /** @throws IllegalArgumentException if ε or the sensitivity was not set */
    public ReportNoisyMax build() {
      return new ReportNoisyMax(scale(), noise);
    }
  }
}
