package org.privet.mechanisms;

import java.math.BigInteger;
import java.util.Objects;
import org.privet.accounting.PureDp;
import org.privet.accounting.UpwardRounding;
import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;

/**
 * The sparse vector technique (AboveThreshold with up to c positive answers), in the corrected
 * form of Lyu, Su, Li (2017), "Understanding the Sparse Vector Technique for Differential
 * Privacy" (PVLDB 10(6)), Algorithm 1 (their Theorem 2); the c = 1 case is AboveThreshold (Dwork
 * &amp; Roth 2014, Algorithm 1, Thm. 3.23).
 *
 * <p>A threshold noise ρ ~ Lap(Δ/ε<sub>1</sub>) is drawn once. For each query answer
 * q<sub>i</sub> (sensitivity Δ, queries may be chosen adaptively), a fresh ν<sub>i</sub> ~
 * Lap(2cΔ/ε<sub>2</sub>) (Lap(cΔ/ε<sub>2</sub>) for monotone queries) is drawn and ⊤
 * ({@code true}) is answered iff q<sub>i</sub> + ν<sub>i</sub> ≥ T + ρ, else ⊥. After the c-th ⊤
 * the mechanism halts and refuses further queries. The whole interaction is
 * (ε<sub>1</sub> + ε<sub>2</sub>)-DP, with ε<sub>1</sub> + ε<sub>2</sub> ≤ ε; only the ⊤/⊥ bits
 * are released, never the noisy values (releasing them is one of the errors Lyu et al. document).
 * The budget is split in the ratio ε<sub>1</sub> : ε<sub>2</sub> = 1 : (2c)<sup>2/3</sup>
 * (monotone: 1 : c<sup>2/3</sup>) that Lyu et al. (Sec. 4.2) show minimises the error.
 *
 * <p><b>Exact.</b> Answers and the threshold are mapped to an integer grid of spacing h ≤
 * Δ/2<sup>10</sup> (integer sensitivity ⌈Δ/h⌉), ε<sub>1</sub>, ε<sub>2</sub> are rounded down to
 * dyadic rationals, and both noises are discrete Laplace, sampled exactly (Canonne, Kamath,
 * Steinke 2020, Algorithm 2). The proof of Lyu et al. goes through unchanged for integer shifts;
 * see {@code docs/proofs/sparse-vector.md}.
 *
 * <p>Stateful and thread-safe: {@link #test} is synchronized.
 */
public final class SparseVector {

  private final double epsilon;
  private final double sensitivity;
  private final double threshold;
  private final int maxPositives;
  private final boolean monotone;
  private final RandomSource random;
  private final IntegerGrid grid;
  private final long thresholdIndex;
  private final long queryNoiseNum;
  private final long queryNoiseDen;
  private final long rho;
  private int positives;
  private long queries;

  private SparseVector(Builder b) {
    this.epsilon = b.epsilon;
    this.sensitivity = b.sensitivity;
    this.threshold = b.threshold;
    this.maxPositives = b.maxPositives;
    this.monotone = b.monotone;
    this.random = b.random;
    this.grid = IntegerGrid.forSensitivity(sensitivity);
    this.thresholdIndex = grid.index(threshold);
    double ratio = Math.pow((monotone ? 1.0 : 2.0) * maxPositives, 2.0 / 3.0);
    DyadicRational eps1 = DyadicRational.floorOf("epsilon", epsilon / (1 + ratio));
    // ε2 ≤ ε − ε1 exactly: the subtraction rounded down (the one home of that rounding).
    DyadicRational eps2 =
        DyadicRational.floorOf("epsilon", UpwardRounding.subtractDown(epsilon, eps1.value()));
    long delta = grid.sensitivity();
    try {
      // ρ ~ DLap(Δint/ε1): scale num/den = Δint·2^j1 / n1.
      this.rho = DiscreteLaplace.sample(random, Math.multiplyExact(delta, eps1.den()), eps1.num());
      // ν ~ DLap(c'·c·Δint/ε2), c' = 2 (standard) or 1 (monotone).
      this.queryNoiseNum =
          Math.multiplyExact(
              Math.multiplyExact((monotone ? 1L : 2L) * maxPositives, delta), eps2.den());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("maxPositives is too large for this epsilon", e);
    }
    this.queryNoiseDen = eps2.num();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Tests one query answer against the threshold: {@code true} (⊤) if the noisy answer is at
   * least the noisy threshold.
   *
   * @param answer the query's true answer on the data (sensitivity at most Δ), finite
   * @throws IllegalStateException if the mechanism has halted after c positive answers
   * @throws IllegalArgumentException if {@code answer} is NaN or infinite
   */
  public synchronized boolean test(double answer) {
    if (positives >= maxPositives) {
      throw new IllegalStateException(
          "sparse vector has halted after " + maxPositives + " positive answers");
    }
    if (Double.isNaN(answer) || Double.isInfinite(answer)) {
      throw new IllegalArgumentException("answer must be a finite number");
    }
    queries++;
    long difference = grid.index(answer) - thresholdIndex; // |.| ≤ 2^62: no overflow
    long nu = DiscreteLaplace.sample(random, queryNoiseNum, queryNoiseDen);
    // ⊤ iff q + ν ≥ T + ρ iff (q − T) + ν − ρ ≥ 0, evaluated exactly.
    boolean above;
    try {
      above = Math.subtractExact(Math.addExact(difference, nu), rho) >= 0;
    } catch (ArithmeticException overflow) {
      above =
          BigInteger.valueOf(difference)
                  .add(BigInteger.valueOf(nu))
                  .subtract(BigInteger.valueOf(rho))
                  .signum()
              >= 0;
    }
    if (above) {
      positives++;
    }
    return above;
  }

  /** Whether c positive answers were given, after which {@link #test} refuses. */
  public synchronized boolean halted() {
    return positives >= maxPositives;
  }

  /** How many more positive answers may be given. */
  public synchronized int positivesRemaining() {
    return maxPositives - positives;
  }

  /** How many queries were answered. */
  public synchronized long queriesAnswered() {
    return queries;
  }

  /** The privacy loss of the whole interaction (any number of queries, up to c positives). */
  public PureDp privacyLoss() {
    return new PureDp(epsilon);
  }

  public double epsilon() {
    return epsilon;
  }

  public double sensitivity() {
    return sensitivity;
  }

  public double threshold() {
    return threshold;
  }

  public int maxPositives() {
    return maxPositives;
  }

  public boolean monotone() {
    return monotone;
  }

  /** Validating builder; ε, the sensitivity and the threshold are required. */
  public static final class Builder {
    private double epsilon = Double.NaN;
    private double sensitivity = Double.NaN;
    private double threshold = Double.NaN;
    private int maxPositives = 1;
    private boolean monotone;
    private RandomSource random = RandomSource.secure();

    private Builder() {}

    /** The total privacy parameter ε, in [2^-40, 2^40]. */
    public Builder epsilon(double epsilon) {
      this.epsilon = DyadicRational.requireEpsilon("epsilon", epsilon);
      return this;
    }

    /** The sensitivity Δ &gt; 0 of every query. */
    public Builder sensitivity(double sensitivity) {
      this.sensitivity = DyadicRational.requireSensitivity("sensitivity", sensitivity);
      return this;
    }

    /** The public threshold T (finite). */
    public Builder threshold(double threshold) {
      if (Double.isNaN(threshold) || Double.isInfinite(threshold)) {
        throw new IllegalArgumentException("threshold must be a finite number, was " + threshold);
      }
      this.threshold = threshold;
      return this;
    }

    /** The number c ≥ 1 of positive answers before halting (default 1: AboveThreshold). */
    public Builder maxPositives(int maxPositives) {
      if (maxPositives < 1) {
        throw new IllegalArgumentException("maxPositives must be at least 1, was " + maxPositives);
      }
      this.maxPositives = maxPositives;
      return this;
    }

    /** Whether the queries are monotone (all move the same way between neighbours). */
    public Builder monotone(boolean monotone) {
      this.monotone = monotone;
      return this;
    }

    /** The randomness; defaults to {@link RandomSource#secure()}. */
    public Builder randomSource(RandomSource random) {
      this.random = Objects.requireNonNull(random, "randomSource");
      return this;
    }

    /** @throws IllegalArgumentException if a required parameter is missing */
    public SparseVector build() {
      SelectionScale.requireSet("epsilon", epsilon);
      SelectionScale.requireSet("sensitivity", sensitivity);
      SelectionScale.requireSet("threshold", threshold);
      return new SparseVector(this);
    }
  }
}
