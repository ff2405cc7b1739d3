package org.privet.mechanisms.truncation;

import org.privet.random.RandomSource;

/**
 * The validating builder shared by the truncation mechanisms: each setter rejects a bad value at
 * once, naming the parameter; ε and GS are required at {@code build()}.
 */
abstract class TruncationBuilder<B extends TruncationBuilder<B>> {
  double epsilon = Double.NaN;
  long globalSensitivity = -1;
  double beta = 0.1;
  RandomSource random = RandomSource.secure();

  /** The smallest GS the mechanism accepts. */
  private final long minGlobalSensitivity;

  TruncationBuilder(long minGlobalSensitivity) {
    this.minGlobalSensitivity = minGlobalSensitivity;
  }

  abstract B self();

  /** The privacy parameter ε (required; finite and positive). */
  public B epsilon(double epsilon) {
    this.epsilon = TruncationChecks.epsilon(epsilon);
    return self();
  }

  /**
   * The public bound GS on one unit's contribution (required, at most 2^62); the largest threshold
   * tried is the first power of two at or above it. Privacy does not depend on GS being a true
   * bound, only the accuracy does.
   */
  public B globalSensitivity(long globalSensitivity) {
    this.globalSensitivity =
        TruncationChecks.globalSensitivity(globalSensitivity, minGlobalSensitivity);
    return self();
  }

  /** The failure probability β of the result's interval, in (0, 1); default 0.1. */
  public B beta(double beta) {
    this.beta = TruncationChecks.openUnit("beta", beta);
    return self();
  }

  /** The randomness (default the CSPRNG; seeded sources only in tests). */
  public B randomSource(RandomSource random) {
    this.random = TruncationChecks.random(random);
    return self();
  }

  final void validate() {
    TruncationChecks.epsilon(epsilon);
    TruncationChecks.globalSensitivity(globalSensitivity, minGlobalSensitivity);
  }
}
