package org.privet.engine.selection;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.BudgetFormat;
import org.privet.accounting.PrivacyLoss;
import org.privet.engine.compile.GroupKeys;
import org.privet.engine.release.MechanismSpec;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.noise.DiscreteGaussian;
import org.privet.random.RandomSource;

/**
 * Differentially private set union by the policy Gaussian mechanism with ℓ2-descent (Gopi,
 * Gulhane, Kulkarni, Shen, Shokouhi, Yekhanin 2020, "Differentially Private Set Union", ICML,
 * arXiv:2002.09745: the policy Gaussian mechanism and its privacy theorem): partition selection
 * when a privacy unit may contribute to L0 &gt; 1 groups, where a unit's budget goes to the groups that
 * still need weight instead of 1/√L0 to each.
 *
 * <p><b>Mechanism.</b> Units are visited in a uniformly random order (Fisher–Yates with the
 * session's {@link RandomSource}). Every group has a weight H, initially 0. A unit with kept groups
 * W (after L0 bounding) moves the gaps g = (Γ − H<sub>w</sub>) of its groups below the cutoff Γ
 * toward 0 by ℓ2 distance at most 1: H<sub>W</sub> = Γ if ‖g‖₂ ≤ 1, else H<sub>w</sub> +=
 * g<sub>w</sub>/‖g‖₂ (rounded down, so the implemented increment has ℓ2 norm ≤ 1 exactly; weights
 * are integers on a fine grid). Then each group is released iff ⌊H·2<sup>k</sup>⌋ + Z ≥ R, Z an
 * exact discrete Gaussian N<sub>ℤ</sub>(0, σ²·4<sup>k</sup>) on the coarse grid 2<sup>−k</sup>
 * (Canonne, Kamath, Steinke 2020).
 *
 * <p><b>Parameters.</b> From (ρ, δ): σ = λ/√(2ρ), with λ ≥ 1 the ℓ2 sensitivity of the floored
 * weights (the paper's 1 plus bounded rounding terms); R the least grid threshold with
 * Σ<sub>j ≤ L0</sub> P[Z ≥ R − ⌊2<sup>k</sup>/√j⌋] ≤ δ (the added unit's new groups have weights of
 * ℓ2 norm ≤ 1, so the j-th heaviest weighs ≤ 1/√j; a proven tail bound for the discrete
 * Gaussian); Γ = R + 3σ. The paper's threshold max<sub>t</sub>(1/√t + σΦ<sup>−1</sup>((1 −
 * δ)<sup>1/t</sup>)) is at most this R (tested). Loss:
 * δ-approximately ρ-zCDP, as Gaussian thresholding ({@link PartitionSelection#gaussian}). Argument,
 * the rounding and the limits it relies on: {@code docs/proofs/dp-set-union.md}.
 *
 * <p>Immutable; {@link #select} is total (no data-dependent exception).
 */
public final class SetUnionSelection {
  /** Units and groups are held in int-indexed Java arrays: fewer than 2^31 of each. */
  static final int LOG2_MAX_COUNT = 31;
  /** The cutoff Γ = ρ + ALPHA·σ (the paper tunes Γ above ρ; privacy does not depend on it). */
  static final double ALPHA = 3;
  /** The noise's standard deviation on the coarse grid is about 2^28 grid steps. */
  private static final int SIGMA_GRID_BITS = 28;
  private static final double SLACK = 1e-9;

  private final double rho;
  private final double delta;
  private final int l0;
  private final int k; // coarse grid 2^-k (noise, threshold)
  private final int f; // fine grid 2^-f (weights)
  private final double sensitivity; // λ
  private final long sigmaSqNum; // coarse σ² = num/den
  private final long sigmaSqDen;
  private final long threshold; // R, coarse steps
  private final long cutoff; // Γ, fine steps

  private SetUnionSelection(double rho, double delta, int l0, int k, int f, double sensitivity,
      long num, long den, long threshold, long cutoff) {
    this.rho = rho;
    this.delta = delta;
    this.l0 = l0;
    this.k = k;
    this.f = f;
    this.sensitivity = sensitivity;
    this.sigmaSqNum = num;
    this.sigmaSqDen = den;
    this.threshold = threshold;
    this.cutoff = cutoff;
  }

  /**
   * Set union spending δ-approximate ρ-zCDP for units that contribute to at most {@code l0}
   * groups each (parameters only: public).
   *
   * @throws IllegalArgumentException (naming the parameter) for ρ, δ or L0 out of range
   */
  static SetUnionSelection of(double rho, double delta, int l0) {
    if (!(rho > 0) || Double.isInfinite(rho)) {
      throw new IllegalArgumentException("rho for set union must be positive and finite");
    }
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta for set union must be in (0, 1)");
    }
    if (l0 < 1) {
      throw new IllegalArgumentException("maxGroupsContributed must be positive");
    }
    double sigma0 = 1 / Math.sqrt(2 * rho);
    int k = Math.min(60, SIGMA_GRID_BITS - Math.getExponent(sigma0));
    if (k < 16) {
      throw new IllegalArgumentException("rho too small for set union");
    }
    // Weights: fine grid with room for Γ (an upper estimate, checked below) within 2^61.
    double gammaMax = 4 + sigma0 * 1.5 * (Math.sqrt(2 * Math.log(2.0 * l0 / delta)) + ALPHA + 2);
    int f = 60 - Math.getExponent(gammaMax);
    if (f < k + 8) {
      throw new IllegalArgumentException("rho too large for set union");
    }
    // λ: 1 + policy rounding (≤ 4·√L0 fine steps per later unit, < 2^31 units) + flooring onto
    // the coarse grid (< 1 step in each of < 2^31 groups), rounded up.
    double lambda = (1 + Math.scalb(4 * Math.sqrt(l0), LOG2_MAX_COUNT - f)
        + Math.scalb(Math.sqrt(0x1p31), -k)) * (1 + SLACK);
    // Coarse σ² = (λ·2^k)²/(2ρ) rounded up to num/2^j.
    BigDecimal sigmaSq = new BigDecimal(Math.scalb(lambda, k)).pow(2)
        .divide(new BigDecimal(2 * rho), new MathContext(40, RoundingMode.CEILING));
    int j = Math.max(0, Math.min(40, 60 - Math.getExponent(sigmaSq.doubleValue())));
    long num = sigmaSq.multiply(BigDecimal.valueOf(1L << j)).setScale(0, RoundingMode.CEILING)
        .longValueExact();
    long den = 1L << j;
    double s2 = (double) num / den;
    long r = thresholdFor(k, l0, s2, delta);
    long gammaCoarse = Math.addExact(r, (long) Math.ceil(ALPHA * Math.sqrt(s2)));
    if (gammaCoarse >= (1L << (61 - (f - k)))) {
      throw new IllegalStateException("internal error: set union cutoff exceeds its grid");
    }
    return new SetUnionSelection(rho, delta, l0, k, f, lambda, num, den, r,
        gammaCoarse << (f - k));
  }

  /** The least R ≥ 1 with {@link #layerTail}(R) ≤ {@code delta}. */
  static long thresholdFor(int k, int l0, double sigmaSq, double delta) {
    long[] steps = layerSteps(k, l0);
    long hi = 1;
    while (layerTail(hi, steps, sigmaSq) > delta) {
      hi = Math.multiplyExact(hi, 2);
    }
    long lo = hi / 2; // layerTail(lo) > δ unless lo == 0
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      if (layerTail(mid, steps, sigmaSq) <= delta) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  /** ⌊2^k/√j⌋ for j = 1..L0: the largest coarse weight of the j-th heaviest new group. */
  static long[] layerSteps(int k, int l0) {
    long[] a = new long[l0];
    BigInteger four = BigInteger.ONE.shiftLeft(2 * k);
    for (int j = 1; j <= l0; j++) {
      a[j - 1] = four.divide(BigInteger.valueOf(j)).sqrt().longValueExact();
    }
    return a;
  }

  /**
   * An upper bound on the probability that a group only the added unit has is released, for
   * threshold R, whatever the order: the new groups' weights have ℓ2 norm at most 1, so sorted
   * decreasingly their coarse weights satisfy h<sub>(j)</sub> ≤ ⌊2<sup>k</sup>/√j⌋, and the union
   * bound gives Σ<sub>j ≤ L0</sub> P[Z ≥ R − ⌊2<sup>k</sup>/√j⌋].
   */
  static double layerTail(long r, long[] steps, double sigmaSq) {
    double sum = 0;
    for (long a : steps) {
      sum += tailBound(r - a, sigmaSq);
    }
    return Math.min(1, sum * (1 + SLACK));
  }

  /**
   * An upper bound on P[Z ≥ m], Z ~ N<sub>ℤ</sub>(0, σ²): 1 for m &lt; 1; else, with f(z) =
   * e<sup>−z²/(2σ²)</sup>, Σ<sub>z≥m</sub> f(z) ≤ f(m) + ∫<sub>m</sub><sup>∞</sup> f ≤ f(m)(1 +
   * σ²/m) (f decreasing; Mills ratio), over the normaliser Σ<sub>z</sub> f(z) ≥ σ√(2π) (Poisson
   * summation), with a relative slack of 1e-9 for floating point.
   */
  static double tailBound(long m, double sigmaSq) {
    if (m < 1) {
      return 1;
    }
    double md = m;
    double v = Math.exp(-md * md / (2 * sigmaSq)) * (1 + sigmaSq / md)
        / Math.sqrt(2 * Math.PI * sigmaSq);
    return Math.min(1, v * (1 + SLACK));
  }

  /**
   * Runs the mechanism on units given by their kept groups (indices in [0, groups), distinct per
   * unit) and returns which groups are released. The list is shuffled in place.
   */
  boolean[] select(List<int[]> units, int groups, RandomSource random) {
    for (int i = units.size() - 1; i > 0; i--) {
      int j = (int) random.nextLong(i + 1L);
      int[] t = units.get(i);
      units.set(i, units.get(j));
      units.set(j, t);
    }
    long[] h = weights(units, groups);
    boolean[] released = new boolean[groups];
    int shift = f - k;
    for (int g = 0; g < groups; g++) {
      long z = DiscreteGaussian.sample(random, sigmaSqNum, sigmaSqDen);
      released[g] = z >= threshold - (h[g] >> shift);
    }
    return released;
  }

  /**
   * Reads each unit's kept groups from {@code backend} ({@link Backend#keptGroups}), runs the
   * mechanism and returns the released groups' keys (canonical, {@link GroupKeys}).
   */
  public Set<List<Object>> releasedGroups(Backend backend, BoundedAggregation spec,
      RandomSource random) {
    Map<List<Object>, Integer> ids = new HashMap<>();
    List<List<Object>> keys = new ArrayList<>();
    List<int[]> units = new ArrayList<>();
    backend.keptGroups(spec, groups -> {
      int[] unit = new int[groups.size()];
      int n = 0;
      for (List<Object> g : groups) {
        List<Object> key = GroupKeys.canonical(g);
        Integer id = ids.get(key);
        if (id == null) {
          id = keys.size();
          ids.put(key, id);
          keys.add(key);
        }
        boolean seen = false;
        for (int i = 0; i < n; i++) {
          seen |= unit[i] == id;
        }
        if (!seen) {
          unit[n++] = id;
        }
      }
      units.add(n == unit.length ? unit : Arrays.copyOf(unit, n));
    });
    boolean[] released = select(units, keys.size(), random);
    Set<List<Object>> out = new HashSet<>();
    for (int g = 0; g < released.length; g++) {
      if (released[g]) {
        out.add(keys.get(g));
      }
    }
    return out;
  }

  /** The policy's weights, in fine steps, for units in the given order. */
  long[] weights(List<int[]> units, int groups) {
    long[] h = new long[groups];
    BigInteger one = BigInteger.ONE.shiftLeft(f);
    BigInteger oneSq = BigInteger.ONE.shiftLeft(2 * f);
    long[] buffer = new long[l0];
    for (int[] unit : units) {
      long[] gap = unit.length <= buffer.length ? buffer : new long[unit.length];
      int n = 0;
      BigInteger normSq = BigInteger.ZERO;
      for (int g : unit) {
        long d = cutoff - h[g];
        gap[n++] = d;
        if (d > 0) {
          BigInteger b = BigInteger.valueOf(d);
          normSq = normSq.add(b.multiply(b));
        }
      }
      if (normSq.signum() == 0) {
        continue;
      }
      boolean reach = normSq.compareTo(oneSq) <= 0;
      BigInteger s = null;
      if (!reach) {
        s = normSq.sqrt();
        if (s.multiply(s).compareTo(normSq) < 0) {
          s = s.add(BigInteger.ONE); // ⌈‖g‖⌉: the increment's norm stays ≤ 1
        }
      }
      for (int i = 0; i < n; i++) {
        long d = gap[i];
        if (d <= 0) {
          continue;
        }
        int g = unit[i];
        h[g] = reach ? cutoff : h[g] + BigInteger.valueOf(d).multiply(one).divide(s).longValue();
      }
    }
    return h;
  }

  /** The threshold ρ in weight units (R·2^−k). */
  double threshold() {
    return Math.scalb((double) threshold, -k);
  }

  long thresholdSteps() {
    return threshold;
  }

  int gridBits() {
    return k;
  }

  int weightBits() {
    return f;
  }

  /** The cutoff Γ in weight units. */
  double cutoff() {
    return Math.scalb((double) cutoff, -f);
  }

  /** σ in weight units. */
  double sigma() {
    return Math.scalb(Math.sqrt((double) sigmaSqNum / sigmaSqDen), -k);
  }

  long[] sigmaSquaredRational() {
    return new long[] {sigmaSqNum, sigmaSqDen};
  }

  public double sensitivity() {
    return sensitivity;
  }

  double delta() {
    return delta;
  }

  /** The proven bound on the probability that any group only the added unit has is released. */
  double newGroupsReleaseBound() {
    long[] s2 = sigmaSquaredRational();
    return layerTail(threshold, layerSteps(k, l0), (double) s2[0] / s2[1]);
  }

  double rho() {
    return rho;
  }

  /**
   * The paper's closed form for the same σ and δ: max<sub>1≤t≤L0</sub>(1/√t +
   * σΦ<sup>−1</sup>((1 − δ)<sup>1/t</sup>)) (continuous Gaussian, equal weights).
   */
  double paperThreshold() {
    double best = Double.NEGATIVE_INFINITY;
    double sigma = sigma();
    for (int t = 1; t <= l0; t++) {
      // (1 − δ)^{1/t} = 1 − q with q = −expm1(log1p(−δ)/t); Φ^{-1}(1 − q) by bisection on Q.
      double q = -Math.expm1(Math.log1p(-delta) / t);
      best = Math.max(best, 1 / Math.sqrt(t) + sigma * upperQuantile(q));
    }
    return best;
  }

  /** z with Q(z) = P[N(0,1) ≥ z] = q, by bisection. */
  private static double upperQuantile(double q) {
    double lo = -40;
    double hi = 40;
    for (int i = 0; i < 200; i++) {
      double mid = (lo + hi) / 2;
      if (org.privet.math.Normal.upperTail(mid) > q) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  /**
   * The least number of units for a 50% release of a group whose units contribute to it alone
   * (each adds weight 1 until Γ): ⌈ρ⌉. Units spread over L0 new groups each add about 1/√L0.
   */
  long unitsForHalfRelease() {
    return (threshold + (1L << k) - 1) >> k;
  }

  PrivacyLoss privacyLoss() {
    return new ApproxZcdp(rho, delta);
  }

  String describe() {
    return "SetUnion(policy Gaussian, ρ=" + BudgetFormat.up(rho) + ", δ="
        + BudgetFormat.up(delta) + ", L0=" + l0 + ", σ=" + MechanismSpec.fmt(sigma()) + ", threshold="
        + MechanismSpec.fmt(threshold()) + ", Γ=" + MechanismSpec.fmt(cutoff()) + ")";
  }
}
