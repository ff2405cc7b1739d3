package org.privet.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.privet.accounting.Budget;

/**
 * What a query given by target errors asks for ({@link Query.Builder#targetError}): for each
 * output the largest acceptable half-width of its confidence interval, at one confidence level,
 * plus the public facts the solver may use. All of it is public: the query text and the user's
 * own assertions, never the data (docs/proofs/accuracy-targets.md).
 *
 * @param halfWidths the target half-width per output name, in output units
 * @param confidence the level 1 − β at which every target must hold
 * @param minCount a public lower bound on the rows in each released group (0: not given)
 * @param delta the δ of the solved budget (0: pure ε, or pure ρ with GAUSSIAN noise)
 */
public record AccuracyTargets(Map<String, Double> halfWidths, double confidence, long minCount,
    double delta) {
  /** The default confidence level of a target error. */
  public static final double DEFAULT_CONFIDENCE = 0.95;

  public AccuracyTargets {
    halfWidths = Collections.unmodifiableMap(new LinkedHashMap<>(halfWidths));
  }

  /** Whether the solver works in ρ (GAUSSIAN noise) rather than ε. */
  public static boolean solvesForRho(NoiseKind noise) {
    return noise == NoiseKind.GAUSSIAN;
  }

  /** A budget of the family the solver uses, with parameter {@code x} (ε or ρ). */
  public static Budget budget(NoiseKind noise, double x, double delta) {
    if (solvesForRho(noise)) {
      return Budget.zcdp(x, delta);
    }
    return delta > 0 ? Budget.approx(x, delta) : Budget.pure(x);
  }

  /** A stand-in budget of the solved family, for validating the rest of the query. */
  static Budget standIn(NoiseKind noise, double delta) {
    return budget(noise, 1.0, delta);
  }

  @Override
  public String toString() {
    return "targets=" + halfWidths + "@" + confidence + (minCount > 0 ? ", minCount=" + minCount
        : "") + (delta > 0 ? ", delta=" + delta : "");
  }
}
