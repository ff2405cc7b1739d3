package org.privet.mechanisms;

import java.util.Objects;
import org.privet.random.RandomSource;

/**
 * The exact parameters shared by the selection mechanisms ({@link ExponentialMechanism},
 * {@link PermuteAndFlip}, {@link ReportNoisyMax}): the integer grid for utilities and the rational
 * rate ε̃/(c·Δ<sub>int</sub>) with c = 2, or c = 1 for monotone utilities.
 */
final class SelectionScale {

  final double epsilon;
  final double sensitivity;
  final boolean monotone;
  final RandomSource random;
  final IntegerGrid grid;
  /** ε rounded down to a dyadic rational. */
  final DyadicRational dyadicEpsilon;
  /** The rate ε̃/(c·Δint) = rateNum/rateDen applied to integer utility gaps. */
  final long rateNum;
  final long rateDen;

  SelectionScale(double epsilon, double sensitivity, boolean monotone, RandomSource random) {
    requireSet("epsilon", epsilon);
    requireSet("sensitivity", sensitivity);
    this.epsilon = epsilon;
    this.sensitivity = sensitivity;
    this.monotone = monotone;
    this.random = Objects.requireNonNull(random, "randomSource");
    this.grid = IntegerGrid.forSensitivity(sensitivity);
    this.dyadicEpsilon = DyadicRational.floorOf("epsilon", epsilon);
    this.rateNum = dyadicEpsilon.num();
    this.rateDen = Math.multiplyExact(dyadicEpsilon.den(), multiplier() * grid.sensitivity());
  }

  /** c = 2 for the standard form, 1 for monotone utilities. */
  long multiplier() {
    return monotone ? 1 : 2;
  }

  /** Exact weights exp(−rate·gap) for the given utilities. */
  ExponentialWeights weights(double[] utilities) {
    return new ExponentialWeights(grid.gaps(requireUtilities(utilities)), rateNum, rateDen);
  }

  /** (c·Δ'/ε̃)·ln(k/β) + h, Dwork &amp; Roth Thm. 3.11 on the grid; rounded upward. */
  double exponentialErrorBound(int candidates, double beta) {
    return errorBound(candidates, beta, 1.0, 1.0);
  }

  /**
   * factor·(c·Δ'/ε̃)·ln(spread·k/β) + h, rounded upward, where Δ' = h·⌈Δ/h⌉ is the grid
   * sensitivity.
   */
  double errorBound(int candidates, double beta, double factor, double spread) {
    if (candidates < 1) {
      throw new IllegalArgumentException("candidates must be at least 1, was " + candidates);
    }
    NoiseParameters.requireBeta(beta);
    double h = grid.spacing();
    double scale = multiplier() * grid.sensitivity() * h / dyadicEpsilon.value();
    double log = Math.log(spread) + Math.log(candidates) - Math.log(beta);
    return roundUp(factor * scale * log + h);
  }

  static double[] requireUtilities(double[] utilities) {
    Objects.requireNonNull(utilities, "utilities");
    if (utilities.length == 0) {
      throw new IllegalArgumentException("utilities must not be empty");
    }
    return utilities;
  }

  static void requireSet(String name, double value) {
    if (Double.isNaN(value)) {
      throw new IllegalArgumentException(name + " is required");
    }
  }

  /** Nudges a floating-point result of a few operations above its exact value. */
  static double roundUp(double x) {
    return Math.nextUp(x + Math.abs(x) * 0x1p-40);
  }
}
