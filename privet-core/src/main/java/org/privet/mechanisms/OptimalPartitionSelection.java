package org.privet.mechanisms;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.privet.accounting.ApproxDp;
import org.privet.noise.Bernoulli;
import org.privet.random.RandomSource;

/**
 * The optimal (ε, δ)-DP partition selection of Desfontaines, Voss, Gipson, Mandayam (2022),
 * "Differentially private partition selection", PoPETs 2022(1) (arXiv:2006.03684; Google's
 * {@code PreAggPartitionSelection}): a partition with n distinct privacy units is kept with
 * probability π<sub>n</sub>, independently of everything else, where
 *
 * <pre>π₀ = 0,   π_n = min(e^ε·π_{n−1} + δ,  1 − e^{−ε}·(1 − π_{n−1} − δ),  1).</pre>
 *
 * <p>Theorem 1 of the paper: when each unit is in at most one partition, this π is (ε, δ)-DP and
 * pointwise the largest keep probability of any (ε, δ)-DP partition selection; its closed form
 * ({@link #closedForm}) is δ(e<sup>nε</sup> − 1)/(e<sup>ε</sup> − 1) up to a first crossover
 * n₁ = 1 + ⌊ln(1 + tanh(ε/2)(1/δ − 1))/ε⌋, then a geometric approach to 1 reached at n₂.
 * With L0 &gt; 1 partitions per unit each partition runs the mechanism at (ε/L0, δ/L0) (basic
 * composition over the at most L0 partitions one unit changes).
 *
 * <p>Decisions. The recurrence is evaluated in exact integer arithmetic on the grid 2<sup>−62</sup>
 * with a rational e<sup>ε</sup> rounded <em>down</em>, e<sup>−ε</sup> rounded <em>up</em>, δ
 * rounded down, and each π<sub>n</sub> rounded down: every step only tightens both DP constraints,
 * and rounding down onto the grid keeps π non-decreasing. A partition is kept by an exact
 * {@link Bernoulli} draw of numerator/2<sup>62</sup>, never by comparing a double with a uniform.
 * The table stops at π = 1 or after {@value #MAX_TABLE} entries; beyond its end the last value is
 * used (a constant continuation satisfies both constraints). Privacy argument, with the rounding:
 * {@code docs/proofs/optimal-partition-selection.md}. Tests: {@code
 * OptimalPartitionSelectionTest} (core), {@code OptimalPartitionSelectionAuditTest} (engine).
 *
 * <p>Immutable and thread-safe.
 */
public final class OptimalPartitionSelection {
  /** Bits of the probability grid: π<sub>n</sub> = keep[n]/2<sup>62</sup>. */
  public static final int PRECISION = 62;
  /** Largest number of tabulated keep probabilities. */
  public static final int MAX_TABLE = 1 << 18;

  private static final long ONE = 1L << PRECISION;
  /** Bits of the fixed-point constants e^ε (rounded down) and e^{−ε} (rounded up). */
  private static final int CONST_BITS = 40;

  private final double epsilon;
  private final double delta;
  private final int l0;
  private final long[] keep;

  private OptimalPartitionSelection(double epsilon, double delta, int l0, long[] keep) {
    this.epsilon = epsilon;
    this.delta = delta;
    this.l0 = l0;
    this.keep = keep;
  }

  /**
   * The mechanism spending (ε, δ) over all partitions of a unit, with at most {@code
   * maxPartitionsContributed} partitions per unit.
   *
   * @throws IllegalArgumentException naming the parameter: ε not positive and finite, δ outside
   *     (0, 1), maxPartitionsContributed &lt; 1
   */
  public static OptimalPartitionSelection of(double epsilon, double delta,
      int maxPartitionsContributed) {
    NoiseParameters.requireEpsilon(epsilon);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta for partition selection must be in (0, 1)");
    }
    if (maxPartitionsContributed < 1) {
      throw new IllegalArgumentException("maxPartitionsContributed must be at least 1");
    }
    double eps = Math.nextDown(epsilon / maxPartitionsContributed); // ≤ ε/L0
    // e^{ε'} rounded down and e^{−ε'} rounded up: Math.exp is within 1 ulp, two ulps are safe;
    // r in [1, 2^20] and s in [2^−40, 1] keep the bounds valid (e^{ε'} ≥ 1, e^{−ε'} ≤ 1).
    double rLow = Math.nextDown(Math.nextDown(Math.exp(Math.min(eps, 20 * Math.log(2)))));
    double sHigh = Math.nextUp(Math.nextUp(Math.exp(-eps)));
    long r = Math.max(1L << CONST_BITS, (long) Math.floor(Math.scalb(rLow, CONST_BITS)));
    long s = Math.min(1L << CONST_BITS,
        Math.max(1, (long) Math.ceil(Math.scalb(sHigh, CONST_BITS))));
    long d = new BigDecimal(delta).multiply(new BigDecimal(ONE))
        .divide(BigDecimal.valueOf(maxPartitionsContributed), 0, RoundingMode.FLOOR)
        .longValueExact();
    return new OptimalPartitionSelection(epsilon, delta, maxPartitionsContributed,
        table(r, s, d));
  }

  /** π on the 2^−62 grid: x_n = min(⌊r·x⌋ + d, 2^62 − ⌈s·(2^62 − x − d)⌉, 2^62). */
  private static long[] table(long r, long s, long d) {
    long[] t = new long[64];
    int n = 0;
    long x = 0;
    while (x < ONE && n + 1 < MAX_TABLE) {
      long a = saturatingAdd(mulShiftFloor(x, r), d);
      long rest = ONE - x - d;
      long b = rest <= 0 ? ONE : ONE - mulShiftCeil(rest, s);
      x = Math.min(ONE, Math.min(a, b));
      n++;
      if (n == t.length) {
        t = java.util.Arrays.copyOf(t, Math.min(MAX_TABLE, 2 * t.length));
      }
      t[n] = x;
    }
    return java.util.Arrays.copyOf(t, n + 1);
  }

  /** ⌊x·m/2^40⌋ for 0 ≤ x ≤ 2^62, 0 &lt; m ≤ 2^60, saturating at Long.MAX_VALUE. */
  private static long mulShiftFloor(long x, long m) {
    long hi = Math.multiplyHigh(x, m);
    long lo = x * m;
    if ((hi >>> (CONST_BITS - 1)) != 0) {
      return Long.MAX_VALUE;
    }
    return (hi << (64 - CONST_BITS)) | (lo >>> CONST_BITS);
  }

  /** ⌈x·m/2^40⌉ for 0 ≤ x ≤ 2^62, 0 &lt; m ≤ 2^40 (no overflow: the result is ≤ x). */
  private static long mulShiftCeil(long x, long m) {
    long lo = x * m;
    long floor = mulShiftFloor(x, m);
    return (lo & ((1L << CONST_BITS) - 1)) != 0 ? floor + 1 : floor;
  }

  private static long saturatingAdd(long a, long b) {
    long r = a + b;
    return r < a ? Long.MAX_VALUE : r;
  }

  /** Keeps a partition with {@code units} distinct units with probability π (exact Bernoulli). */
  public boolean keep(long units, RandomSource random) {
    long num = keepNumerator(units);
    return num != 0 && Bernoulli.sample(random, num, ONE);
  }

  /** π<sub>units</sub>·2<sup>62</sup> exactly (0 for units ≤ 0). */
  public long keepNumerator(long units) {
    if (units <= 0) {
      return 0;
    }
    return keep[(int) Math.min(units, keep.length - 1)];
  }

  /** π<sub>units</sub> as used (the exact grid value, converted to double). */
  public double keepProbability(long units) {
    return Math.scalb((double) keepNumerator(units), -PRECISION);
  }

  /** The least n with π<sub>n</sub> ≥ p, or −1 if the table never reaches p. */
  public long unitsForKeepProbability(double p) {
    if (!(p > 0 && p <= 1)) {
      throw new IllegalArgumentException("p must be in (0, 1]");
    }
    for (int n = 1; n < keep.length; n++) {
      if (keepProbability(n) >= p) {
        return n;
      }
    }
    return -1;
  }

  /** The number of tabulated probabilities (n = 0 .. size − 1); π is constant afterwards. */
  public int tableSize() {
    return keep.length;
  }

  /**
   * The paper's closed form of π<sub>n</sub> (Theorem 1) in floating point, at (ε, δ) per
   * partition: a reference for tests and benchmarks, never used to decide.
   */
  public static double closedForm(double epsilon, double delta, long n) {
    if (n <= 0) {
      return 0;
    }
    double n1 = 1 + Math.floor(Math.log1p(Math.tanh(epsilon / 2) * (1 / delta - 1)) / epsilon);
    double p1 = Math.expm1(Math.min(n, n1) * epsilon) / Math.expm1(epsilon) * delta;
    if (n <= n1) {
      return p1;
    }
    // 1 − π_n = e^{−mε}(1 − π_{n1} + δ/(e^ε − 1)) − δ/(e^ε − 1), m = n − n1, until it reaches 0.
    double m = n - n1;
    double u = -Math.expm1(-m * epsilon) * -(1 - p1 + delta / Math.expm1(epsilon));
    return Math.min(1, p1 - u);
  }

  /** (ε, δ)-DP over all partitions of a unit (Theorem 1 with basic composition over L0). */
  public ApproxDp privacyLoss() {
    return new ApproxDp(epsilon, delta);
  }

  public double epsilon() {
    return epsilon;
  }

  public double delta() {
    return delta;
  }

  public int maxPartitionsContributed() {
    return l0;
  }

  public String describe() {
    long half = unitsForKeepProbability(0.5);
    return "OptimalPartitionSelection(ε=" + epsilon + ", δ=" + delta + ", L0=" + l0
        + ", 50% kept at " + (half < 0 ? "never" : half + " units") + ")";
  }
}
