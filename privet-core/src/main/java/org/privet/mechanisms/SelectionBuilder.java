package org.privet.mechanisms;

import java.util.Objects;
import org.privet.random.RandomSource;

/**
 * The validating builder shared by the selection mechanisms. Each setter rejects a bad value at
 * once with an {@link IllegalArgumentException} naming the parameter; {@code build()} rejects
 * missing required values.
 *
 * @param <B> the concrete builder
 */
abstract class SelectionBuilder<B extends SelectionBuilder<B>> {
  double epsilon = Double.NaN;
  double sensitivity = Double.NaN;
  boolean monotone;
  RandomSource random = RandomSource.secure();

  abstract B self();

  /** The privacy parameter ε, in [2^-40, 2^40] (required). */
  public B epsilon(double epsilon) {
    this.epsilon = DyadicRational.requireEpsilon("epsilon", epsilon);
    return self();
  }

  /** The sensitivity Δu &gt; 0 of every utility (required). */
  public B sensitivity(double sensitivity) {
    this.sensitivity = DyadicRational.requireSensitivity("sensitivity", sensitivity);
    return self();
  }

  /**
   * Whether the utilities are monotone: between any two neighbouring datasets all utilities move
   * in the same direction (e.g. counts under add/remove-one). Halves the noise. Default false.
   */
  public B monotone(boolean monotone) {
    this.monotone = monotone;
    return self();
  }

  /** The randomness; defaults to {@link RandomSource#secure()}. */
  public B randomSource(RandomSource random) {
    this.random = Objects.requireNonNull(random, "randomSource");
    return self();
  }

  SelectionScale scale() {
    return new SelectionScale(epsilon, sensitivity, monotone, random);
  }
}
