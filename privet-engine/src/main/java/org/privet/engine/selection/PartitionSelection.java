package org.privet.engine.selection;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.BudgetFormat;
import org.privet.accounting.PrivacyLoss;
import org.privet.engine.release.MechanismSpec;
import org.privet.mechanisms.OptimalPartitionSelection;
import org.privet.noise.Bernoulli;
import org.privet.noise.DiscreteGaussian;
import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;

/**
 * Private partition selection by thresholding a noisy number of distinct privacy units per group
 * (Korolova, Kenthapadi, Mishra, Ntoulas 2009, "Releasing search queries and clicks privately";
 * Desfontaines, Voss, Gipson, Mandayam 2022, "Differentially private partition selection", PoPETs;
 * Google's {@code PreAggSelectPartition} and its Laplace and Gaussian thresholding strategies).
 * After L0 bounding each unit adds 1 to the unit count of at most L0 groups. A group is released iff
 * units + Z ≥ τ (Laplace: or, with probability γ, units + Z = τ − 1); groups with no units are
 * never released. Argument (both kinds):
 * {@code docs/proofs/engine-partition-selection.md}.
 *
 * <p><b>Laplace thresholding</b> ({@link #laplace}): Z exact discrete Laplace of scale t ≥ L0/ε,
 * τ = m + 1 with m the least integer ≥ 1 such that P[Z ≥ m] = q<sup>m</sup>/(1+q) ≤ δ/L0,
 * q = e<sup>−1/t</sup>; a noisy count of exactly τ − 1 is also released with probability γ, the
 * largest (on the 2<sup>−62</sup> grid) with q<sup>m</sup>/(1+q) + γ·(1−q)q<sup>m−1</sup>/(1+q) ≤
 * δ/L0 (the Neyman–Pearson test of one unit against more: the rest of the δ budget goes to the most
 * likely boundary outcome), drawn by an exact Bernoulli. Loss: (ε, δ)-DP (δ capped at L0·(1 −
 * e<sup>−ε/L0</sup>)).
 *
 * <p><b>Gaussian thresholding</b> ({@link #gaussian}): Z exact discrete Gaussian N<sub>ℤ</sub>(0,
 * σ²) (Canonne, Kamath, Steinke 2020, Algorithm 3) with σ² ≥ L0/(2ρ): the counts of the groups
 * present in both neighbours move by 1 in at most L0 coordinates, an ℓ2 change of at most √L0, so
 * their noisy counts are ρ-zCDP (CKS20, Prop. 5 and Thm. 14 for independent coordinates). τ = m + 1
 * with m the least integer ≥ 1 such that L0·P[Z ≥ m] ≤ δ, where P[Z ≥ m] is bounded above with
 * the explicit sum of the first terms, an integral bound on the rest and the Poisson-summation
 * lower bound σ√(2π) on the normaliser. The at most L0 groups that exist only because of the added
 * unit are then released with total probability ≤ δ; conditioned on none being released the
 * output is post-processing of the ρ-zCDP vector, so the selection is δ-approximately ρ-zCDP (Bun
 * &amp; Steinke 2016, Def. 8.1), stated as {@link ApproxZcdp}(ρ, δ). This is the zCDP form of
 * Google's Gaussian thresholding (Desfontaines et al. 2022, Sec. 4; Wilkins, Kifer, Zhang, Karrer
 * 2024, "Exact privacy analysis of the Gaussian sparse histogram mechanism", give a tighter exact
 * (ε, δ) analysis that this class does not use).
 *
 * <p><b>Optimal selection</b> ({@link #optimal}): no noisy count; a group with n units is kept with
 * the optimal (ε, δ)-DP probability π<sub>n</sub> of Desfontaines et al. 2022, Theorem 1
 * ({@link OptimalPartitionSelection}, exact Bernoulli draws), at (ε/L0, δ/L0) per group. Loss:
 * (ε, δ)-DP ({@code docs/proofs/optimal-partition-selection.md}).
 *
 * <p><b>Set union</b> ({@link #setUnion}): no per-group decision; the policy Gaussian mechanism of
 * Gopi et al. 2020 over every unit's kept groups ({@link SetUnionSelection}). Loss: δ-approximate
 * ρ-zCDP ({@code docs/proofs/dp-set-union.md}).
 */
public final class PartitionSelection {
  /** The selection mechanisms. */
  public enum Kind {
    LAPLACE, GAUSSIAN, OPTIMAL, SET_UNION;

    /** Whether the selection draws a noisy unit count (that a COUNT output can reuse). */
    public boolean noisyCount() {
      return this == LAPLACE || this == GAUSSIAN;
    }
  }

  /** Terms of the discrete Gaussian tail and normaliser summed explicitly. */
  private static final int EXPLICIT_TERMS = 4096;
  /** Relative safety factor on floating-point tail bounds (errors are below 1e-12 relative). */
  private static final double SLACK = 1e-9;

  private final Kind kind;
  private final double epsilon; // LAPLACE
  private final double rho; // GAUSSIAN
  private final double delta;
  private final int l0;
  private final long paramNum; // LAPLACE: scale t = num/den; GAUSSIAN: σ² = num/den
  private final long paramDen;
  private final long threshold;
  private final OptimalPartitionSelection optimal; // OPTIMAL
  private final SetUnionSelection setUnion; // SET_UNION
  /** LAPLACE: P[release | noisy count = τ − 1] = boundaryNum/2^62 (0 otherwise). */
  private final long boundaryNum;
  private static final long GRID = 1L << 62;

  private PartitionSelection(Kind kind, double epsilon, double rho, double delta, int l0,
      long num, long den, long tau) {
    this(kind, epsilon, rho, delta, l0, num, den, tau, null, 0, null);
  }

  private PartitionSelection(Kind kind, double epsilon, double rho, double delta, int l0,
      long num, long den, long tau, OptimalPartitionSelection optimal, long boundaryNum,
      SetUnionSelection setUnion) {
    this.kind = kind;
    this.epsilon = epsilon;
    this.rho = rho;
    this.delta = delta;
    this.l0 = l0;
    this.paramNum = num;
    this.paramDen = den;
    this.threshold = tau;
    this.optimal = optimal;
    this.boundaryNum = boundaryNum;
    this.setUnion = setUnion;
  }

  /** Optimal selection (Desfontaines et al. 2022, Theorem 1) with an (ε, δ) share. */
  public static PartitionSelection optimal(double epsilon, double delta, int l0) {
    requireDelta(delta);
    OptimalPartitionSelection o = OptimalPartitionSelection.of(epsilon, delta, l0);
    return new PartitionSelection(Kind.OPTIMAL, epsilon, 0, delta, l0, 0, 0, 0, o, 0, null);
  }

  /** Set union (Gopi et al. 2020, policy Gaussian) with a δ-approximate ρ-zCDP share. */
  public static PartitionSelection setUnion(double rho, double delta, int l0) {
    SetUnionSelection u = SetUnionSelection.of(rho, delta, l0);
    return new PartitionSelection(Kind.SET_UNION, 0, rho, delta, l0, 0, 0, 0, null, 0, u);
  }

  /** The set-union mechanism (SET_UNION only). */
  public SetUnionSelection setUnionSelection() {
    return setUnion;
  }

  /** Laplace thresholding with an (ε, δ) share. */
  public static PartitionSelection laplace(double epsilon, double delta, int l0) {
    requireDelta(delta);
    if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException(
          "epsilon for partition selection must be positive and finite");
    }
    // scale t = num/den ≥ L0/ε exactly: num = ⌈L0·2^j/ε⌉ over the exact binary value of ε (as
    // GeometricMechanism computes Δ/ε), on a power-of-two denominator. The double L0/ε only
    // chooses j; rounding it could put t below L0/ε (issue 10, item 7).
    double ratio = l0 / epsilon;
    int j = Math.min(40, 60 - Math.getExponent(ratio));
    if (j < 0) {
      throw new IllegalArgumentException(
          "epsilon too small for partition selection with maxGroupsContributed " + l0);
    }
    long den = 1L << j;
    BigDecimal exactNum = new BigDecimal(l0).multiply(new BigDecimal(den))
        .divide(new BigDecimal(epsilon), 0, RoundingMode.CEILING);
    if (exactNum.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 4)) > 0) {
      throw new IllegalArgumentException(
          "epsilon too small for partition selection with maxGroupsContributed " + l0);
    }
    long num = exactNum.longValueExact();
    double t = (double) num / den;
    // The release direction D → D' needs δ/L0 ≤ 1 − e^{−ε/L0} (docs/proofs): spend no more δ.
    delta = Math.min(delta, Math.nextDown(-Math.expm1(-epsilon / l0)) * l0 * (1 - 1e-12));
    double logQ = -1 / t; // ln q
    double target = Math.log(delta / l0);
    // m·ln q − ln(1 + q) ≤ ln(δ/L0), with a safety margin against rounding.
    double lnOnePlusQ = Math.log1p(Math.exp(logQ));
    double m0 = (target + lnOnePlusQ) / logQ;
    long m = Math.max(1, (long) Math.ceil(m0 * (1 + 1e-9) + 1e-9));
    while (m * logQ - lnOnePlusQ > target - 1e-12 * Math.abs(target)) {
      m++;
    }
    // The boundary: γ with q^m/(1+q) + γ·(1−q)q^{m−1}/(1+q) ≤ δ/L0. Both terms are evaluated to
    // far better than 1e-12 relative (|m·ln q| stays below ~50 here), and relative margins of
    // 1e-9 plus an absolute 1e-12 on γ, then rounding down onto the grid, keep it below the exact
    // bound.
    double tail = Math.exp(m * logQ - lnOnePlusQ);
    double atom = Math.exp((m - 1) * logQ - lnOnePlusQ) * -Math.expm1(logQ);
    double room = delta / l0 * (1 - 1e-9) - tail * (1 + 1e-9);
    double gamma = room <= 0 || atom <= 0 ? 0
        : Math.min(1, room / (atom * (1 + 1e-9)) * (1 - 1e-9) - 1e-12);
    long boundary = gamma <= 0 ? 0 : (long) Math.floor(Math.scalb(gamma, 62));
    return new PartitionSelection(Kind.LAPLACE, epsilon, 0, delta, l0, num, den,
        Math.addExact(m, 1), null, boundary, null);
  }

  /** Gaussian thresholding with a δ-approximate ρ-zCDP share. */
  public static PartitionSelection gaussian(double rho, double delta, int l0) {
    requireDelta(delta);
    if (!(rho > 0) || Double.isInfinite(rho)) {
      throw new IllegalArgumentException("rho for partition selection must be positive and finite");
    }
    // σ² = L0/(2ρ) rounded upward to n/2^j (n around 2^40, as the value mechanisms do).
    BigDecimal sigmaSq = BigDecimal.valueOf(l0)
        .divide(new BigDecimal(2 * rho), new MathContext(40, RoundingMode.CEILING));
    int j = Math.max(0, Math.min(40, 40 - Math.getExponent(sigmaSq.doubleValue())));
    BigDecimal scaled = sigmaSq.multiply(BigDecimal.valueOf(1L << j))
        .setScale(0, RoundingMode.CEILING);
    if (scaled.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 4)) > 0) {
      throw new IllegalArgumentException(
          "rho too small for partition selection with maxGroupsContributed " + l0);
    }
    long num = scaled.longValueExact();
    long den = 1L << j;
    double s2 = (double) num / den;
    double target = delta / l0;
    // Least m ≥ 1 whose tail bound is ≤ δ/L0: grow an upper end, then bisect.
    long hi = 1;
    while (gaussianTailBound(hi, s2) > target) {
      hi = Math.multiplyExact(hi, 2);
    }
    long lo = hi / 2; // tail(lo) > target unless lo == 0
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      if (gaussianTailBound(mid, s2) <= target) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return new PartitionSelection(Kind.GAUSSIAN, 0, rho, delta, l0, num, den,
        Math.addExact(hi, 1));
  }

  private static void requireDelta(double delta) {
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta for partition selection must be in (0, 1)");
    }
  }

  /**
   * An upper bound on P[Z ≥ m], Z ~ N<sub>ℤ</sub>(0, σ²), m ≥ 1: with f(z) = e<sup>−z²/(2σ²)</sup>
   * and n = m + K, Σ<sub>z≥m</sub> f(z) ≤ Σ<sub>z=m</sub><sup>n−1</sup> f(z) + f(n) +
   * ∫<sub>n</sub><sup>∞</sup> f ≤ Σ<sub>z=m</sub><sup>n−1</sup> f(z) + f(n)(1 + σ²/n) (f decreasing;
   * Gaussian Mills-ratio bound ∫<sub>n</sub><sup>∞</sup> f ≤ (σ²/n) f(n)), divided by a lower bound
   * on the normaliser Σ<sub>z∈ℤ</sub> f(z) ≥ max(σ√(2π), Σ<sub>|z|&lt;K</sub> f(z)) (Poisson
   * summation: Σ f(z) = σ√(2π)·Σ<sub>k</sub> e<sup>−2π²σ²k²</sup> ≥ σ√(2π)). Floating-point errors
   * (well below 1e-12 relative) are covered by a relative slack of 1e-9 in each direction.
   */
  static double gaussianTailBound(long m, double sigmaSq) {
    if (m < 1) {
      throw new IllegalArgumentException("m must be at least 1");
    }
    double twoS2 = 2 * sigmaSq;
    double upper = 0;
    long n = m + EXPLICIT_TERMS;
    for (long z = m; z < n; z++) {
      double term = Math.exp(-((double) z * z) / twoS2);
      upper += term;
      if (term == 0) {
        break;
      }
    }
    upper += Math.exp(-((double) n * n) / twoS2) * (1 + sigmaSq / n);
    upper += Double.MIN_NORMAL * (1 + sigmaSq); // covers terms that underflowed to 0
    double partial = 1; // z = 0
    for (long z = 1; z < EXPLICIT_TERMS; z++) {
      double term = Math.exp(-((double) z * z) / twoS2);
      if (term == 0) {
        break;
      }
      partial += 2 * term;
    }
    double normaliser = Math.max(Math.sqrt(sigmaSq * 2 * Math.PI), partial) * (1 - SLACK);
    return Math.min(1.0, upper * (1 + SLACK) / normaliser);
  }

  public Kind kind() {
    return kind;
  }

  /**
   * The noisy distinct-unit count of a group (fresh noise), saturating at the long range: total,
   * so that no data-dependent magnitude can make it fail after the charge (issue 10, item 3).
   */
  public long noisyCount(long units, RandomSource random) {
    if (!kind.noisyCount()) {
      throw new IllegalStateException("internal error: " + kind + " selection draws no noisy count");
    }
    long z = kind == Kind.LAPLACE ? DiscreteLaplace.sample(random, paramNum, paramDen)
        : DiscreteGaussian.sample(random, paramNum, paramDen);
    long r = units + z;
    if (((units ^ r) & (z ^ r)) < 0) {
      return units < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  /** Whether a group with {@code units} distinct units is released (draws fresh noise). */
  public boolean keep(long units, RandomSource random) {
    if (kind == Kind.OPTIMAL) {
      return optimal.keep(units, random);
    }
    if (kind == Kind.SET_UNION) {
      throw new IllegalStateException("internal error: set union selects over all units at once");
    }
    return units > 0 && passes(noisyCount(units, random), random);
  }

  /**
   * The least number of units with which a group is released with probability ≥ ½ (τ for the
   * thresholds: P[Z ≥ 0] ≥ ½ for symmetric noise; the optimal table's first π ≥ ½), or
   * Long.MAX_VALUE if never.
   */
  public long unitsForHalfRelease() {
    if (kind == Kind.LAPLACE) {
      // At τ − 1 units: P[Z ≥ 1] + γ·P[Z = 0] = (q + γ(1 − q))/(1 + q).
      double q = Math.exp(-(double) paramDen / paramNum);
      return (q + boundaryProbability() * (1 - q)) / (1 + q) >= 0.5 ? threshold - 1 : threshold;
    }
    if (kind == Kind.SET_UNION) {
      return setUnion.unitsForHalfRelease();
    }
    if (kind != Kind.OPTIMAL) {
      return threshold;
    }
    long n = optimal.unitsForKeepProbability(0.5);
    return n < 0 ? Long.MAX_VALUE : n;
  }

  /**
   * Whether a group (with at least one unit) with this noisy count is released: at or above τ, or
   * at τ − 1 with the boundary probability γ (Laplace; an exact Bernoulli draw).
   */
  public boolean passes(long noisyCount, RandomSource random) {
    if (noisyCount >= threshold) {
      return true;
    }
    return noisyCount == threshold - 1 && boundaryNum > 0
        && Bernoulli.sample(random, boundaryNum, GRID);
  }

  /** γ: the probability that a noisy count of exactly τ − 1 is released (0 but for Laplace). */
  double boundaryProbability() {
    return Math.scalb((double) boundaryNum, -62);
  }

  /**
   * The least h with P[|Z| &gt; h] ≤ β (Laplace exactly: 2q^{h+1}/(1+q); Gaussian through the
   * tail bound): noisy count ± h covers the exact unit count with probability ≥ 1 − β, before
   * thresholding.
   */
  public double halfWidth(double beta) {
    if (!(beta > 0 && beta < 1)) {
      throw new IllegalArgumentException("beta must be in (0, 1)");
    }
    long h = 0;
    while (twoSidedTail(h) > beta) {
      h = h == 0 ? 1 : Math.multiplyExact(h, 2);
    }
    long lo = h / 2 - 1; // twoSidedTail(lo) > β unless h ≤ 1
    while (h - lo > 1 && lo >= 0) {
      long mid = lo + (h - lo) / 2;
      if (twoSidedTail(mid) <= beta) {
        h = mid;
      } else {
        lo = mid;
      }
    }
    return h;
  }

  /** An upper bound on P[|Z| &gt; h] = 2·P[Z ≥ h + 1]. */
  private double twoSidedTail(long h) {
    if (kind == Kind.GAUSSIAN) {
      return Math.min(1.0, 2 * gaussianTailBound(h + 1, sigmaSquared()));
    }
    double q = Math.exp(-(double) paramDen / paramNum);
    return Math.min(1.0, 2 * Math.pow(q, h + 1) / (1 + q));
  }

  /**
   * Probability that a group with exactly one unit is released: q^m/(1+q) + γ(1−q)q^{m−1}/(1+q)
   * for Laplace (≤ δ/L0), the proven upper bound on P[Z ≥ m] for Gaussian thresholding, π₁ for
   * the optimal mechanism.
   */
  double singleUnitReleaseProbability() {
    if (kind == Kind.OPTIMAL) {
      return optimal.keepProbability(1);
    }
    if (kind == Kind.SET_UNION) {
      return setUnion.newGroupsReleaseBound();
    }
    if (kind == Kind.GAUSSIAN) {
      return gaussianTailBound(threshold - 1, sigmaSquared());
    }
    double q = Math.exp(-(double) paramDen / paramNum);
    return (Math.pow(q, threshold - 1) + boundaryProbability() * (1 - q)
        * Math.pow(q, threshold - 2)) / (1 + q);
  }

  public long threshold() {
    return threshold;
  }

  /** Laplace scale t (LAPLACE only). */
  double scale() {
    return (double) paramNum / paramDen;
  }

  /** σ² of the discrete Gaussian (GAUSSIAN only). */
  double sigmaSquared() {
    return (double) paramNum / paramDen;
  }

  /** The Laplace scale t as the exact rational num/den used by the sampler (LAPLACE only). */
  long[] scaleRational() {
    return new long[] {paramNum, paramDen};
  }

  /** σ² as the exact rational num/den used by the sampler (GAUSSIAN only). */
  long[] sigmaSquaredRational() {
    return new long[] {paramNum, paramDen};
  }

  /** Standard deviation of the noise on a group's count (for Gaussian, at most σ). */
  public double noiseStddev() {
    if (kind == Kind.OPTIMAL) {
      return Double.NaN;
    }
    if (kind == Kind.SET_UNION) {
      return setUnion.sigma();
    }
    if (kind == Kind.GAUSSIAN) {
      return Math.sqrt(sigmaSquared());
    }
    double q = Math.exp(-1 / scale());
    return Math.sqrt(2 * q) / (1 - q);
  }

  /** (ε, δ)-DP for Laplace thresholding; δ-approximate ρ-zCDP for Gaussian thresholding. */
  public PrivacyLoss privacyLoss() {
    if (kind == Kind.SET_UNION) {
      return setUnion.privacyLoss();
    }
    return kind == Kind.GAUSSIAN ? new ApproxZcdp(rho, delta) : new ApproxDp(epsilon, delta);
  }

  public String describe() {
    if (kind == Kind.SET_UNION) {
      return setUnion.describe();
    }
    if (kind == Kind.OPTIMAL) {
      long half = unitsForHalfRelease();
      return "OptimalSelection(ε=" + BudgetFormat.up(epsilon) + ", δ=" + BudgetFormat.up(delta) + ", L0=" + l0
          + ", P[keep 1 unit]=" + MechanismSpec.fmt(singleUnitReleaseProbability()) + ", 50% kept from "
          + (half == Long.MAX_VALUE ? "never" : half + " units") + ")";
    }
    if (kind == Kind.GAUSSIAN) {
      return "GaussianThreshold(ρ=" + BudgetFormat.up(rho) + ", δ=" + BudgetFormat.up(delta) + ", L0=" + l0
          + ", σ=" + MechanismSpec.fmt(Math.sqrt(sigmaSquared())) + ", τ=" + threshold + ")";
    }
    return "LaplaceThreshold(ε=" + BudgetFormat.up(epsilon) + ", δ=" + BudgetFormat.up(delta) + ", L0=" + l0
        + ", scale=" + MechanismSpec.fmt(scale()) + ", τ=" + threshold + ", P[release at τ−1]="
        + MechanismSpec.fmt(boundaryProbability()) + ")";
  }
}
