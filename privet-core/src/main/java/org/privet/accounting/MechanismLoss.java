package org.privet.accounting;

import org.privet.accounting.pld.DominatingPair;
import org.privet.accounting.pld.LossAtoms;
import org.privet.accounting.pld.LossTails;
import org.privet.math.Normal;

/**
 * The privacy loss of a release described by the mechanism itself, so that tight accountants (Rényi
 * DP, privacy loss distributions) can use its exact privacy loss rather than a summary. Each record
 * is the one home of its mechanism's privacy formulas: the summary measures where they exist
 * ({@link #pureEpsilon()}, {@link #zcdpRho()}), its Rényi DP curve ({@link #rdp}) and its dominating
 * pair for the PLD accountant ({@link #dominatingPair()}); the Gaussian also owns its exact privacy
 * profile ({@link Gaussian#analyticDelta}, Balle &amp; Wang 2018).
 *
 * <p>Parameters are relative to the sensitivity under whichever {@link NeighbouringRelation} the
 * caller used to compute that sensitivity; Poisson subsampling ({@link PoissonSubsampled}) is under
 * {@link NeighbouringRelation#ADD_REMOVE_ONE}.
 */
public sealed interface MechanismLoss extends PrivacyLoss {

  /** The pure ε this mechanism satisfies, or NaN if none is finite. */
  double pureEpsilon();

  /** The ρ of the zCDP it satisfies (ε²/2 for pure mechanisms), rounded up. */
  double zcdpRho();

  /** An upper bound on its Rényi divergence of order α &gt; 1 (its RDP curve), rounded up. */
  double rdp(double alpha);

  /** Its privacy loss as a dominating pair, for the {@link org.privet.accounting.pld.PldAccountant}. */
  DominatingPair dominatingPair();

  /**
   * The Gaussian mechanism with noise σ = noiseMultiplier · Δ₂ (Dwork &amp; Roth 2014, App. A; exact
   * privacy profile Balle &amp; Wang 2018). ρ = 1/(2·noiseMultiplier²) (Bun &amp; Steinke 2016, Prop.
   * 1.6); RDP α/(2·noiseMultiplier²) (Mironov 2017, Prop. 7). Its privacy loss is N(1/(2σ²), 1/σ²)
   * under P and N(−1/(2σ²), 1/σ²) under Q for σ = noiseMultiplier (Balle &amp; Wang 2018, Lemma 3),
   * which gives both the exact profile {@link #delta} and the PLD tails.
   */
  record Gaussian(double noiseMultiplier) implements MechanismLoss {
    public Gaussian {
      requirePositive("noiseMultiplier", noiseMultiplier);
    }

    @Override
    public double pureEpsilon() {
      return Double.NaN;
    }

    @Override
    public double zcdpRho() {
      return UpwardRounding.divide(0.5, UpwardRounding.down(noiseMultiplier * noiseMultiplier));
    }

    @Override
    public double rdp(double alpha) {
      return UpwardRounding.multiply(alpha, zcdpRho());
    }

    /**
     * The exact δ(ε) of this mechanism (Balle &amp; Wang 2018, Thm. 8). The k-fold composition of
     * Gaussians with multipliers σ<sub>i</sub> is exactly the Gaussian with 1/σ² = Σ 1/σ<sub>i</sub>²
     * (Dong, Roth, Su 2019), so this is also the exact profile of such compositions.
     */
    public double delta(double epsilon) {
      return analyticDelta(epsilon, 1.0, noiseMultiplier);
    }

    /** The smallest ε with {@link #delta}(ε) ≤ delta, by bisection (δ(ε) decreases in ε). */
    public double epsilon(double delta) {
      if (delta(0.0) <= delta) {
        return 0.0;
      }
      double lo = 0.0;
      double hi = 1.0;
      while (delta(hi) > delta) {
        hi *= 2;
      }
      for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (delta(mid) > delta) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      return hi;
    }

    /**
     * The Balle–Wang privacy profile of the Gaussian mechanism with noise σ on a query of ℓ2
     * sensitivity Δ: δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e<sup>ε</sup>Φ(−Δ/(2σ) − εσ/Δ) (Balle &amp; Wang 2018,
     * "Improving the Gaussian mechanism for differential privacy", Thm. 8), computed with upper
     * tails so that e<sup>ε</sup> never overflows, and never below 0. About 14 significant digits
     * ({@link Normal}): callers that certify privacy with it keep a relative margin.
     */
    public static double analyticDelta(double epsilon, double l2Sensitivity, double sigma) {
      double a = l2Sensitivity / (2 * sigma);
      double b = epsilon * sigma / l2Sensitivity;
      return Math.max(0.0, Normal.upperTail(b - a) - Normal.scaledUpperTail(a + b, epsilon));
    }

    @Override
    public DominatingPair dominatingPair() {
      return new Tails(noiseMultiplier);
    }

    /** The PLD tails: L ~ N(±1/(2σ²), 1/σ²) under P and Q. */
    private static final class Tails implements LossTails {
      private final double mean;
      private final double scale;

      Tails(double sigma) {
        this.mean = 0.5 / (sigma * sigma);
        this.scale = Math.sqrt(2.0) / sigma;
      }

      @Override
      public double pUpper(double l) {
        return 0.5 * Normal.erfc((l - mean) / scale);
      }

      @Override
      public double pLower(double l) {
        return 0.5 * Normal.erfc((mean - l) / scale);
      }

      @Override
      public double qUpper(double l) {
        return 0.5 * Normal.erfc((l + mean) / scale);
      }

      @Override
      public double qLower(double l) {
        return 0.5 * Normal.erfc((-mean - l) / scale);
      }

      @Override
      public double minLoss() {
        return Double.NEGATIVE_INFINITY;
      }

      @Override
      public double maxLoss() {
        return Double.POSITIVE_INFINITY;
      }
    }
  }

  /**
   * The Laplace mechanism with scale b = noiseMultiplier · Δ₁: ε = 1/noiseMultiplier. RDP
   * (1/(α−1))·ln(α/(2α−1)·e<sup>(α−1)/b</sup> + (α−1)/(2α−1)·e<sup>−α/b</sup>) (Mironov 2017, Prop.
   * 6), capped by that of ε-DP. PLD: P = Lap(0, b), Q = Lap(1, b), loss (|x − 1| − |x|)/b.
   */
  record Laplace(double noiseMultiplier) implements MechanismLoss {
    public Laplace {
      requirePositive("noiseMultiplier", noiseMultiplier);
    }

    @Override
    public double pureEpsilon() {
      return UpwardRounding.divide(1.0, noiseMultiplier);
    }

    @Override
    public double zcdpRho() {
      return ZcdpAccountant.halfSquare(pureEpsilon());
    }

    @Override
    public double rdp(double alpha) {
      double b = noiseMultiplier;
      double a = Math.log(alpha / (2 * alpha - 1)) + (alpha - 1) / b;
      double c = Math.log((alpha - 1) / (2 * alpha - 1)) - alpha / b;
      double value = RdpAccountant.logSumExp(a, c) / (alpha - 1);
      double laplace =
          Math.max(0.0, UpwardRounding.withMargin(value, (Math.abs(a) + Math.abs(c) + 1) / (alpha - 1)));
      return Math.min(laplace, RandomizedResponse.pureRdp(pureEpsilon(), alpha));
    }

    @Override
    public DominatingPair dominatingPair() {
      return new Tails(noiseMultiplier);
    }

    /** The PLD tails; the loss is non-increasing in x, with atoms at ±1/b. */
    private static final class Tails implements LossTails {
      private final double b;
      private final double max;

      Tails(double b) {
        this.b = b;
        this.max = 1.0 / b;
      }

      private double cdf(double x) {
        return x < 0 ? 0.5 * Math.exp(x / b) : 1 - 0.5 * Math.exp(-x / b);
      }

      private double survival(double x) {
        return x >= 0 ? 0.5 * Math.exp(-x / b) : 1 - 0.5 * Math.exp(x / b);
      }

      private double threshold(double l) {
        return (1 - l * b) / 2;
      }

      @Override
      public double pUpper(double l) {
        return l > max ? 0 : l <= -max ? 1 : cdf(threshold(l));
      }

      @Override
      public double pLower(double l) {
        return l > max ? 1 : l <= -max ? 0 : survival(threshold(l));
      }

      @Override
      public double qUpper(double l) {
        return l > max ? 0 : l <= -max ? 1 : cdf(threshold(l) - 1);
      }

      @Override
      public double qLower(double l) {
        return l > max ? 1 : l <= -max ? 0 : survival(threshold(l) - 1);
      }

      @Override
      public double minLoss() {
        return -max;
      }

      @Override
      public double maxLoss() {
        return max;
      }
    }
  }

  /**
   * The discrete Laplace (two-sided geometric) mechanism, P(x) ∝ exp(−|x|/scale), on an integer
   * query of sensitivity {@code sensitivity}: ε = sensitivity/scale (Ghosh, Roughgarden, Sundararajan
   * 2012; Canonne, Kamath, Steinke 2020).
   */
  record DiscreteLaplace(double scale, long sensitivity) implements MechanismLoss {
    public DiscreteLaplace {
      requirePositive("scale", scale);
      requireAtLeast("sensitivity", sensitivity, 1);
    }

    @Override
    public double pureEpsilon() {
      return UpwardRounding.divide(sensitivity, scale);
    }

    @Override
    public double zcdpRho() {
      return ZcdpAccountant.halfSquare(pureEpsilon());
    }

    @Override
    public double rdp(double alpha) {
      return RandomizedResponse.pureRdp(pureEpsilon(), alpha);
    }

    /** Atoms x = 0..Δ of P = DLap(0, t), Q = DLap(Δ, t); outside them the loss is ±Δ/t. */
    @Override
    public DominatingPair dominatingPair() {
      double t = scale;
      if (sensitivity > 10_000_000) {
        throw new IllegalArgumentException("sensitivity too large for the PLD accountant: " + sensitivity);
      }
      int middle = (int) (sensitivity - 1);
      double[] loss = new double[middle + 2];
      double[] p = new double[middle + 2];
      double[] q = new double[middle + 2];
      double e1 = Math.exp(-1 / t);
      double c = (1 - e1) / (1 + e1);
      double side = 1 / (1 + e1);
      double far = Math.exp(-sensitivity / t) / (1 + e1);
      loss[0] = sensitivity / t;
      p[0] = side;
      q[0] = far;
      loss[1] = -sensitivity / t;
      p[1] = far;
      q[1] = side;
      for (int x = 1; x <= middle; x++) {
        loss[x + 1] = (sensitivity - 2.0 * x) / t;
        p[x + 1] = c * Math.exp(-x / t);
        q[x + 1] = c * Math.exp(-(sensitivity - x) / t);
      }
      return new LossAtoms(loss, p, q);
    }
  }

  /**
   * The discrete Gaussian mechanism, P(x) ∝ exp(−x²/(2σ²)) on the integers, for an integer query of
   * sensitivity {@code sensitivity}: ρ = sensitivity²/(2σ²)-zCDP (Canonne, Kamath, Steinke 2020,
   * Thm. 14).
   */
  record DiscreteGaussian(double sigma, long sensitivity) implements MechanismLoss {
    public DiscreteGaussian {
      requirePositive("sigma", sigma);
      requireAtLeast("sensitivity", sensitivity, 1);
    }

    @Override
    public double pureEpsilon() {
      return Double.NaN;
    }

    @Override
    public double zcdpRho() {
      double s2 = UpwardRounding.multiply((double) sensitivity, (double) sensitivity);
      return UpwardRounding.divide(UpwardRounding.multiply(0.5, s2), UpwardRounding.down(sigma * sigma));
    }

    @Override
    public double rdp(double alpha) {
      return UpwardRounding.multiply(alpha, zcdpRho());
    }

    /** Atoms on x ∈ [−k, k + Δ], k = ⌈39σ⌉ + 1; the mass beyond is below 2·e^{−760}. */
    @Override
    public DominatingPair dominatingPair() {
      long k = (long) Math.ceil(39 * sigma) + 1;
      long count = 2 * k + sensitivity + 1;
      if (count > 20_000_000L) {
        throw new IllegalArgumentException(
            "sigma/sensitivity too large for the PLD accountant's discrete Gaussian: sigma=" + sigma);
      }
      double twoVar = 2 * sigma * sigma;
      double z = 1;
      for (long x = 1; x <= k + sensitivity + 1; x++) {
        z += 2 * Math.exp(-(double) x * x / twoVar);
      }
      int n = (int) count;
      double[] loss = new double[n];
      double[] p = new double[n];
      double[] q = new double[n];
      double s = sensitivity;
      for (int i = 0; i < n; i++) {
        double x = -k + i;
        loss[i] = (s * s - 2 * x * s) / twoVar;
        p[i] = Math.exp(-x * x / twoVar) / z;
        q[i] = Math.exp(-(x - s) * (x - s) / twoVar) / z;
      }
      return new LossAtoms(loss, p, q);
    }
  }

  /**
   * k-ary randomized response (Warner 1965; Kairouz, Oh, Viswanath 2016): report the true category
   * with probability e^ε/(e^ε + k − 1), else a uniformly chosen other one. ε-DP; for k = 2 its privacy
   * loss is the worst case over all ε-DP mechanisms.
   */
  record RandomizedResponse(double epsilon, int categories) implements MechanismLoss {
    public RandomizedResponse {
      requirePositive("epsilon", epsilon);
      requireAtLeast("categories", categories, 2);
    }

    @Override
    public double pureEpsilon() {
      return epsilon;
    }

    @Override
    public double zcdpRho() {
      return ZcdpAccountant.halfSquare(epsilon);
    }

    @Override
    public double rdp(double alpha) {
      return rdp(epsilon, categories, alpha);
    }

    /**
     * RDP of binary randomized response with parameter ε, whose pair dominates every ε-DP pair, so
     * this bounds the RDP of any ε-DP mechanism; 0 for ε = 0.
     */
    static double pureRdp(double eps, double alpha) {
      if (eps == 0) {
        return 0.0;
      }
      return Math.min(eps, rdp(eps, 2, alpha));
    }

    /** The exact Rényi divergence of k-ary randomized response, rounded up. */
    static double rdp(double eps, int k, double alpha) {
      // p = e^ε/D, r = 1/D, D = e^ε + k − 1. Terms p^α r^{1−α} + r^α p^{1−α} + (k − 2) r.
      double logD = eps + Math.log1p((k - 1) * Math.exp(-eps));
      double logP = eps - logD;
      double logR = -logD;
      double t1 = alpha * logP + (1 - alpha) * logR;
      double t2 = alpha * logR + (1 - alpha) * logP;
      double s = RdpAccountant.logSumExp(t1, t2);
      if (k > 2) {
        s = RdpAccountant.logSumExp(s, Math.log(k - 2.0) + logR);
      }
      double value = s / (alpha - 1);
      return Math.min(eps, Math.max(0.0, UpwardRounding.withMargin(value, (Math.abs(t1) + Math.abs(t2) + 1) / (alpha - 1))));
    }

    /** Atoms ε, 0, −ε: report the truth, another category, or the one the neighbour holds. */
    @Override
    public DominatingPair dominatingPair() {
      int k = categories;
      // D = e^ε + k − 1; written with e^{−ε} to avoid overflow.
      double em = Math.exp(-epsilon);
      double dTop = 1 + (k - 1) * em; // D·e^{−ε}
      double high = 1 / dTop;
      double low = em / dTop;
      double mid = (k - 2) * em / dTop;
      return new LossAtoms(
          new double[] {epsilon, 0.0, -epsilon}, new double[] {high, mid, low}, new double[] {low, mid, high});
    }
  }

  private static void requireAtLeast(String name, long value, long min) {
    if (value < min) {
      throw new IllegalArgumentException(name + " must be an integer of at least " + min + ", was " + value);
    }
  }

  private static void requirePositive(String name, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value) || value <= 0) {
      throw new IllegalArgumentException(name + " must be finite and positive, was " + value);
    }
  }
}
