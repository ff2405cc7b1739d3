package org.privet.mechanisms;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.PureDp;
import org.privet.noise.Bernoulli;
import org.privet.random.RandomSource;

/**
 * Randomized response, a local ε-DP mechanism for one respondent's categorical value (Warner
 * 1965, "Randomized response: a survey technique for eliminating evasive answer bias"; Dwork
 * &amp; Roth 2014, Sec. 3.2 and Claim 3.5; generalized/k-ary form: Kairouz, Oh, Viswanath 2014,
 * "Extremal mechanisms for local differential privacy", and Wang, Blocki, Li, Jha 2017, "Locally
 * differentially private protocols for frequency estimation", direct encoding).
 *
 * <ul>
 *   <li><b>Binary</b> ({@code builder().epsilon(ε)}): answers truthfully with probability
 *       e<sup>ε</sup>/(1 + e<sup>ε</sup>), otherwise lies. ε-DP: the two response probabilities
 *       differ by the factor e<sup>ε</sup>.
 *   <li><b>k-ary</b> ({@code builder().epsilon(ε).categories(k)}): reports the true category with
 *       probability e<sup>ε</sup>/(e<sup>ε</sup> + k − 1) and each other category with probability
 *       1/(e<sup>ε</sup> + k − 1). ε-DP for the same reason. Binary is the case k = 2.
 *   <li><b>Two coins</b> ({@code builder().twoCoin()}): the survey protocol of Dwork &amp; Roth
 *       Sec. 3.2: flip a coin; heads, answer truthfully; tails, flip again and answer "true" on
 *       heads, "false" on tails. Truth probability 3/4, ε = ln 3 (reported rounded upward).
 * </ul>
 *
 * <p><b>Exact sampling.</b> The truth probability e<sup>ε</sup>/(e<sup>ε</sup> + k − 1) =
 * 1/(1 + (k − 1)e<sup>−ε</sup>) is never computed in floating point. ε is rounded down to a
 * dyadic rational ε̃ ≤ ε (the safe direction: the mechanism is ε̃-DP, hence ε-DP), and each round
 * draws a uniform category J: if J is the true category it is reported; otherwise J is reported
 * with probability exp(−ε̃), an exact CKS20 Bernoulli(exp(−γ)) coin, and the round repeats on
 * rejection. A round reports the truth with probability 1/k and a given other category with
 * probability e<sup>−ε̃</sup>/k, so the output law is exactly the one above; see
 * {@code docs/proofs/randomized-response.md}. Expected rounds k/(1 + (k − 1)e<sup>−ε̃</sup>) ≤ 2
 * for binary.
 *
 * <p><b>Estimation.</b> From n responses of which a fraction f̂<sub>j</sub> report category j,
 * π̂<sub>j</sub> = (f̂<sub>j</sub> − q)/(p − q), with p the truth probability and q the probability
 * of a given lie, is unbiased for the true fraction π<sub>j</sub>. By Hoeffding's inequality,
 * |f̂<sub>j</sub> − E f̂<sub>j</sub>| ≤ sqrt(ln(2/β)/(2n)) with probability ≥ 1 − β, so
 * π<sub>j</sub> ∈ π̂<sub>j</sub> ± sqrt(ln(2/β)/(2n))/(p − q) with probability ≥ 1 − β for each
 * j (for all k at once with probability ≥ 1 − kβ, by a union bound).
 *
 * <p>Immutable and thread-safe (if its {@link RandomSource} is).
 */
public final class RandomizedResponse {

  private final double epsilon;
  private final int categories;
  private final boolean twoCoin;
  private final DyadicRational dyadicEpsilon; // null for the two-coin protocol
  private final RandomSource random;

  private RandomizedResponse(Builder b) {
    this.twoCoin = b.twoCoin;
    this.categories = b.categories;
    this.random = b.random;
    if (twoCoin) {
      this.epsilon = Math.nextUp(Math.log(3)); // Math.log is within 1 ulp: rounded upward
      this.dyadicEpsilon = null;
    } else {
      this.epsilon = b.epsilon;
      this.dyadicEpsilon = DyadicRational.floorOf("epsilon", b.epsilon);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Answers for a respondent whose true value is {@code truth} (binary and two-coin forms).
   *
   * @throws IllegalStateException if this is a k-ary mechanism with k &gt; 2
   */
  public boolean respond(boolean truth) {
    if (categories != 2) {
      throw new IllegalStateException("respond(boolean) needs 2 categories, have " + categories);
    }
    if (twoCoin) {
      return random.nextBoolean() ? truth : random.nextBoolean();
    }
    return respond(truth ? 1 : 0) == 1;
  }

  /**
   * Answers for a respondent whose true category is {@code category} (0-based; for the binary
   * form, 1 means true).
   *
   * @throws IllegalArgumentException if {@code category} is not in [0, k)
   */
  public int respond(int category) {
    if (category < 0 || category >= categories) {
      throw new IllegalArgumentException(
          "category must be in [0, " + categories + "), was " + category);
    }
    if (twoCoin) {
      return random.nextBoolean() ? category : (random.nextBoolean() ? 1 : 0);
    }
    while (true) {
      int j = (int) random.nextLong(categories);
      if (j == category
          || Bernoulli.sampleExpMinus(random, dyadicEpsilon.num(), dyadicEpsilon.den())) {
        return j;
      }
    }
  }

  /** The probability p of reporting the true category (a floating-point approximation). */
  public double truthProbability() {
    if (twoCoin) {
      return 0.75;
    }
    return 1.0 / (1.0 + (categories - 1) * Math.exp(-dyadicEpsilon.value()));
  }

  /** The probability q of reporting one given category other than the true one. */
  double lieProbability() {
    if (twoCoin) {
      return 0.25;
    }
    return 1.0 / (Math.exp(dyadicEpsilon.value()) + categories - 1);
  }

  /**
   * Estimates the fraction of respondents whose true value is category {@code j}, from the number
   * of responses reporting {@code j}.
   *
   * @param count the number of responses equal to the category, in [0, n]
   * @param n the number of responses, positive
   * @param beta the interval's failure probability, in (0, 1): the interval holds with
   *     probability at least 1 − β (Hoeffding)
   */
  public FrequencyEstimate estimateFrequency(long count, long n, double beta) {
    if (n <= 0) {
      throw new IllegalArgumentException("n must be positive, was " + n);
    }
    if (count < 0 || count > n) {
      throw new IllegalArgumentException("count must be in [0, n], was " + count);
    }
    NoiseParameters.requireBeta(beta);
    double q = lieProbability();
    double gap = twoCoin ? 0.5 : Math.expm1(dyadicEpsilon.value()) * q; // p − q, accurately
    double estimate = ((double) count / n - q) / gap;
    double halfWidth = Math.sqrt(Math.log(2 / beta) / (2.0 * n)) / gap;
    double lower = clamp01(estimate - halfWidth);
    double upper = clamp01(estimate + halfWidth);
    return new FrequencyEstimate(estimate, new ConfidenceInterval(lower, upper, 1 - beta));
  }

  /**
   * Estimates every category's true fraction from the response counts (index j = responses
   * reporting category j); each interval holds with probability ≥ 1 − β.
   */
  public List<FrequencyEstimate> estimateFrequencies(long[] counts, double beta) {
    Objects.requireNonNull(counts, "counts");
    if (counts.length != categories) {
      throw new IllegalArgumentException(
          "counts must have one entry per category (" + categories + "), had " + counts.length);
    }
    long n = 0;
    for (long c : counts) {
      if (c < 0) {
        throw new IllegalArgumentException("counts must be non-negative");
      }
      n = Math.addExact(n, c);
    }
    List<FrequencyEstimate> out = new ArrayList<>(categories);
    for (long c : counts) {
      out.add(estimateFrequency(c, n, beta));
    }
    return List.copyOf(out);
  }

  /** The privacy loss of one response: pure ε-DP (local model). */
  public PureDp privacyLoss() {
    return new PureDp(epsilon);
  }

  /**
   * The full privacy-loss description of one response, for tight accountants (RDP, PLD): k-ary
   * randomized response at ε (the two-coin protocol is binary randomized response at ln 3, rounded
   * up; the sampler runs at a dyadic ε̃ ≤ ε, which this dominates).
   */
  public MechanismLoss.RandomizedResponse mechanismLoss() {
    return new MechanismLoss.RandomizedResponse(epsilon, twoCoin ? 2 : categories);
  }

  public double epsilon() {
    return epsilon;
  }

  public int categories() {
    return categories;
  }

  public boolean twoCoin() {
    return twoCoin;
  }

  private static double clamp01(double x) {
    return Math.max(0.0, Math.min(1.0, x));
  }

  /**
   * Validating builder: either {@link #epsilon} (with optional {@link #categories}) or
   * {@link #twoCoin}.
   */
  public static final class Builder {
    private double epsilon = Double.NaN;
    private int categories = 2;
    private boolean twoCoin;
    private RandomSource random = RandomSource.secure();

    private Builder() {}

    /** The privacy parameter ε, in [2^-40, 2^40]. */
    public Builder epsilon(double epsilon) {
      this.epsilon = DyadicRational.requireEpsilon("epsilon", epsilon);
      return this;
    }

    /** The number k ≥ 2 of categories (default 2, the binary form). */
    public Builder categories(int categories) {
      if (categories < 2) {
        throw new IllegalArgumentException("categories must be at least 2, was " + categories);
      }
      this.categories = categories;
      return this;
    }

    /** Selects the two-coin survey protocol (ε = ln 3, binary only). */
    public Builder twoCoin() {
      this.twoCoin = true;
      return this;
    }

    /** The randomness; defaults to {@link RandomSource#secure()}. */
    public Builder randomSource(RandomSource random) {
      this.random = Objects.requireNonNull(random, "randomSource");
      return this;
    }

    /**
     * @throws IllegalArgumentException if ε is missing (or given together with two coins), or if
     *     two coins are combined with more than 2 categories
     */
    public RandomizedResponse build() {
      if (twoCoin) {
        if (!Double.isNaN(epsilon)) {
          throw new IllegalArgumentException("epsilon must not be set for twoCoin (it is ln 3)");
        }
        if (categories != 2) {
          throw new IllegalArgumentException("categories must be 2 for twoCoin");
        }
      } else {
        SelectionScale.requireSet("epsilon", epsilon);
      }
      return new RandomizedResponse(this);
    }
  }
}
