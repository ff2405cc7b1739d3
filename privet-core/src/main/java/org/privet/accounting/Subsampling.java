package org.privet.accounting;

/**
 * Privacy amplification by subsampling for pure and approximate DP.
 *
 * <ul>
 *   <li>{@link #poisson}: Poisson sampling with rate q under add/remove neighbours gives
 *       (ln(1 + q(e^ε − 1)), qδ)-DP (Li, Qardaji, Su 2012; Balle, Barthe, Gaboardi 2018, Thm. 8).
 *   <li>{@link #withoutReplacement}: a uniformly random subset of fixed size m out of n under
 *       replace-one neighbours gives (ln(1 + (m/n)(e^ε − 1)), (m/n)δ)-DP (Balle, Barthe, Gaboardi
 *       2018, Thm. 9).
 *   <li>{@link #simpleBound}: the lecture-note bound ε' = q(e^ε − 1) (≤ 2qε for ε ≤ 1), which follows
 *       from ln(1 + x) ≤ x and is always looser than the tight one above; kept for comparison.
 * </ul>
 */
public final class Subsampling {
  private Subsampling() {}

  /** Amplification by Poisson subsampling with rate q (add/remove neighbours), rounded up. */
  public static ApproxDp poisson(ApproxDp base, double samplingRate) {
    checkRate("samplingRate", samplingRate);
    return amplify(base, samplingRate);
  }

  /**
   * Amplification by sampling m of n records without replacement (replace-one neighbours), rounded
   * up.
   */
  public static ApproxDp withoutReplacement(ApproxDp base, long sampleSize, long populationSize) {
    if (populationSize < 1) {
      throw new IllegalArgumentException("populationSize must be positive, was " + populationSize);
    }
    if (sampleSize < 1 || sampleSize > populationSize) {
      throw new IllegalArgumentException("sampleSize must be in [1, populationSize], was " + sampleSize);
    }
    double gamma = UpwardRounding.divide((double) sampleSize, (double) populationSize);
    return amplify(base, Math.min(1.0, gamma));
  }

  /** The looser bound (q(e^ε − 1), qδ), rounded up. */
  public static ApproxDp simpleBound(ApproxDp base, double samplingRate) {
    checkRate("samplingRate", samplingRate);
    double eps = UpwardRounding.multiply(samplingRate, UpwardRounding.up(Math.expm1(base.epsilon())));
    return new ApproxDp(eps, UpwardRounding.multiply(samplingRate, base.delta()));
  }

  private static ApproxDp amplify(ApproxDp base, double rate) {
    double inner = UpwardRounding.multiply(rate, UpwardRounding.up(Math.expm1(base.epsilon())));
    double eps = Math.min(base.epsilon(), UpwardRounding.up(Math.log1p(inner)));
    double delta = Math.min(base.delta(), UpwardRounding.multiply(rate, base.delta()));
    return new ApproxDp(eps, delta);
  }

  /** The base's own (ε, δ) if it has one (pure or approximate DP, or a pure-DP mechanism). */
  public static ApproxDp baseApproxDp(PrivacyLoss base) {
    return base instanceof PoissonSubsampled ? null : EventMeasures.asApproxDpIfDirect(base);
  }

  private static void checkRate(String name, double q) {
    if (Double.isNaN(q) || q <= 0 || q > 1) {
      throw new IllegalArgumentException(name + " must be in (0, 1], was " + q);
    }
  }
}
