package org.privet.mechanisms;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Objects;
import org.privet.accounting.NeighbouringRelation;

/**
 * Global sensitivities of the classic query families (Dwork &amp; Roth 2014, Def. 3.1 and Sec.
 * 3.3; Dwork, McSherry, Nissim, Smith 2006), under an explicit {@link NeighbouringRelation}.
 *
 * <p>{@link NeighbouringRelation#ADD_REMOVE_ONE}: one record is added or removed.
 * {@link NeighbouringRelation#REPLACE_ONE}: one record is replaced (the size n is unchanged and
 * public). Where a record can contribute values in [L, U], the results are computed exactly and
 * rounded <em>upward</em> to the next double, so that a mechanism calibrated to them never
 * under-noises.
 *
 * <table>
 *   <caption>Sensitivities (one record per privacy unit)</caption>
 *   <tr><th>query</th><th>add/remove</th><th>replace</th></tr>
 *   <tr><td>dataset size n</td><td>1</td><td>0</td></tr>
 *   <tr><td>predicate count</td><td>1</td><td>1</td></tr>
 *   <tr><td>sum of f(x) ∈ [L, U] (linear query)</td><td>max(|L|, |U|)</td><td>U − L</td></tr>
 *   <tr><td>normalized linear query (1/n)Σf(x), public n</td><td>max(|L|,|U|)/n</td>
 *       <td>(U − L)/n</td></tr>
 *   <tr><td>histogram over disjoint bins, ℓ1</td><td>1</td><td>2</td></tr>
 *   <tr><td>histogram over disjoint bins, ℓ2</td><td>1</td><td>√2</td></tr>
 *   <tr><td>m threshold counts #{x ≤ t<sub>j</sub>}, ℓ1</td><td>m</td><td>m</td></tr>
 *   <tr><td>mean of d attributes in [L, U], public n, ℓ1</td><td>d·max(|L|,|U|)/n</td>
 *       <td>d(U − L)/n</td></tr>
 *   <tr><td>bounded mean, values in [L, U], n ≥ public n<sub>min</sub></td>
 *       <td>(U − L)/n<sub>min</sub></td><td>(U − L)/n<sub>min</sub></td></tr>
 *   <tr><td>bounded variance (population), n ≥ n<sub>min</sub></td>
 *       <td>(U − L)²/n<sub>min</sub></td><td>(U − L)²/n<sub>min</sub></td></tr>
 * </table>
 *
 * <p>Derivations (the non-obvious rows) are in {@code docs/proofs/sensitivity.md}.
 */
public final class Sensitivity {

  private static final MathContext UP = new MathContext(34, RoundingMode.CEILING);

  private Sensitivity() {}

  /** Sensitivity of the number of records n: 1 (add/remove), 0 (replace, n is fixed). */
  public static double datasetSize(NeighbouringRelation relation) {
    return Objects.requireNonNull(relation, "relation") == NeighbouringRelation.ADD_REMOVE_ONE
        ? 1.0
        : 0.0;
  }

  /** Sensitivity of a counting query #{x : P(x)}: 1 under both relations. */
  public static double count(NeighbouringRelation relation) {
    Objects.requireNonNull(relation, "relation");
    return 1.0;
  }

  /**
   * Sensitivity of a linear (sum) query Σ f(x) with f(x) ∈ [lower, upper]: max(|L|, |U|) under
   * add/remove, U − L under replace.
   */
  public static double sum(double lower, double upper, NeighbouringRelation relation) {
    requireBounds(lower, upper);
    return roundUp(sumExact(lower, upper, relation));
  }

  /**
   * Sensitivity of a normalized linear query (1/n)·Σ f(x), f(x) ∈ [lower, upper], where n is a
   * public constant (not the data's size): the {@link #sum} sensitivity divided by n.
   */
  public static double linearQuery(
      double lower, double upper, long n, NeighbouringRelation relation) {
    requireBounds(lower, upper);
    requirePositive("n", n);
    return roundUp(sumExact(lower, upper, relation).divide(BigDecimal.valueOf(n), UP));
  }

  /**
   * ℓ1 sensitivity of a histogram over disjoint bins (point functions) when each privacy unit
   * holds at most {@code rowsPerUnit} rows: m (add/remove), 2m (replace).
   */
  public static double histogramL1(long rowsPerUnit, NeighbouringRelation relation) {
    requirePositive("rowsPerUnit", rowsPerUnit);
    long factor = Objects.requireNonNull(relation, "relation") == NeighbouringRelation.REPLACE_ONE
        ? 2
        : 1;
    return roundUp(BigDecimal.valueOf(rowsPerUnit).multiply(BigDecimal.valueOf(factor)));
  }

  /**
   * ℓ2 sensitivity of a histogram over disjoint bins, each unit holding at most
   * {@code rowsPerUnit} rows: m (add/remove; worst case all rows in one bin), m·√2 (replace),
   * rounded upward.
   */
  public static double histogramL2(long rowsPerUnit, NeighbouringRelation relation) {
    requirePositive("rowsPerUnit", rowsPerUnit);
    BigDecimal m = BigDecimal.valueOf(rowsPerUnit);
    if (Objects.requireNonNull(relation, "relation") == NeighbouringRelation.ADD_REMOVE_ONE) {
      return roundUp(m);
    }
    return roundUp(m.multiply(BigDecimal.valueOf(2).sqrt(UP), UP));
  }

  /**
   * ℓ1 sensitivity of m threshold (cumulative) counts #{x ≤ t<sub>j</sub>}, j = 1..m: one record
   * lies below every threshold at most once, so m under add/remove; a replacement moves a record
   * across at most m thresholds, each count by 1, so m under replace. The ℓ∞ sensitivity is 1.
   */
  public static double thresholdQueriesL1(long thresholds, NeighbouringRelation relation) {
    requirePositive("thresholds", thresholds);
    Objects.requireNonNull(relation, "relation");
    return roundUp(BigDecimal.valueOf(thresholds));
  }

  /**
   * ℓ1 sensitivity of the vector of means of {@code attributes} attributes with values in
   * [lower, upper] over a public number n of records: attributes × {@link #linearQuery}.
   */
  public static double attributeMeansL1(
      long attributes, double lower, double upper, long n, NeighbouringRelation relation) {
    requirePositive("attributes", attributes);
    requireBounds(lower, upper);
    requirePositive("n", n);
    return roundUp(
        sumExact(lower, upper, relation)
            .multiply(BigDecimal.valueOf(attributes))
            .divide(BigDecimal.valueOf(n), UP));
  }

  /**
   * Sensitivity of the mean of values clamped to [lower, upper] over datasets of at least
   * {@code minSize} records: (U − L)/n<sub>min</sub> under both relations.
   */
  public static double boundedMean(
      double lower, double upper, long minSize, NeighbouringRelation relation) {
    requireBounds(lower, upper);
    requirePositive("minSize", minSize);
    Objects.requireNonNull(relation, "relation");
    return roundUp(width(lower, upper).divide(BigDecimal.valueOf(minSize), UP));
  }

  /**
   * Sensitivity of the population variance (1/n)Σ(x − x̄)² of values clamped to [lower, upper]
   * over datasets of at least {@code minSize} records: (U − L)²/n<sub>min</sub> under both
   * relations.
   */
  public static double boundedVariance(
      double lower, double upper, long minSize, NeighbouringRelation relation) {
    requireBounds(lower, upper);
    requirePositive("minSize", minSize);
    Objects.requireNonNull(relation, "relation");
    BigDecimal w = width(lower, upper);
    return roundUp(w.multiply(w).divide(BigDecimal.valueOf(minSize), UP));
  }

  private static BigDecimal sumExact(double lower, double upper, NeighbouringRelation relation) {
    if (Objects.requireNonNull(relation, "relation") == NeighbouringRelation.REPLACE_ONE) {
      return width(lower, upper);
    }
    return new BigDecimal(Math.max(Math.abs(lower), Math.abs(upper)));
  }

  private static BigDecimal width(double lower, double upper) {
    return new BigDecimal(upper).subtract(new BigDecimal(lower));
  }

  /** The smallest double ≥ the exact value. */
  static double roundUp(BigDecimal exact) {
    double d = exact.doubleValue();
    if (!Double.isInfinite(d) && new BigDecimal(d).compareTo(exact) < 0) {
      d = Math.nextUp(d);
    }
    return d;
  }

  private static void requireBounds(double lower, double upper) {
    if (Double.isNaN(lower) || Double.isInfinite(lower)) {
      throw new IllegalArgumentException("lower must be a finite number, was " + lower);
    }
    if (Double.isNaN(upper) || Double.isInfinite(upper)) {
      throw new IllegalArgumentException("upper must be a finite number, was " + upper);
    }
    if (lower > upper) {
      throw new IllegalArgumentException(
          "lower must not exceed upper, was lower=" + lower + " > upper=" + upper);
    }
  }

  private static void requirePositive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }
}
