package org.privet.engine;

import java.util.function.BiFunction;
import java.util.function.LongUnaryOperator;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.mechanisms.ConfidenceInterval;
import org.privet.mechanisms.DiscreteGaussianMechanism;
import org.privet.mechanisms.ExponentialMechanism;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.random.RandomSource;

/** Instantiates the core mechanisms for a compiled query's {@link Slot}s. */
final class Releases {
  private Releases() {}

  /** Additive integer noise (geometric or discrete Gaussian) on fixed-point values. */
  interface Noise {
    long release(long exact);

    ConfidenceInterval interval(long released, double beta);

    PrivacyLoss privacyLoss();

    double stddev();

    double halfWidth(double beta);
  }

  static Noise noise(Slot s, RandomSource random) {
    if (s.kind() == Slot.Kind.LAPLACE) {
      GeometricMechanism m = GeometricMechanism.builder().epsilon(s.epsilon())
          .sensitivity(s.sensitivity()).randomSource(random).build();
      double q = Math.exp(-1 / m.scale());
      return new Adapter(m::release, m::confidenceInterval, m.privacyLoss(),
          Math.sqrt(2 * q) / (1 - q));
    }
    DiscreteGaussianMechanism m = DiscreteGaussianMechanism.builder().rho(s.rho())
        .sensitivity(s.sensitivity()).randomSource(random).build();
    return new Adapter(m::release, m::confidenceInterval, m.privacyLoss(), m.sigma());
  }

  /** A core integer mechanism seen through {@link Noise}. */
  private record Adapter(LongUnaryOperator releaser,
      BiFunction<Long, Double, ConfidenceInterval> intervals, PrivacyLoss privacyLoss,
      double stddev) implements Noise {
    @Override
    public long release(long exact) {
      return releaser.applyAsLong(exact);
    }

    @Override
    public ConfidenceInterval interval(long released, double beta) {
      return intervals.apply(released, beta);
    }

    @Override
    public double halfWidth(double beta) {
      return intervals.apply(0L, beta).upper();
    }
  }

  /** The exponential-mechanism quantile run once per group with ε/L0. */
  static final class Quantile {
    private final ExponentialMechanism mechanism;
    private final int l0;

    private Quantile(ExponentialMechanism mechanism, int l0) {
      this.mechanism = mechanism;
      this.l0 = l0;
    }

    int select(double[] utilities) {
      return mechanism.select(utilities);
    }

    /** The loss over the ≤ L0 groups one unit touches (basic composition), rounded up. */
    PrivacyLoss privacyLossOverGroups() {
      return new PureDp(Math.nextUp(mechanism.privacyLoss().epsilon() * l0));
    }

    double rankErrorBound(int candidates, double beta) {
      return mechanism.utilityErrorBound(candidates, beta);
    }
  }

  static Quantile quantile(Slot s, RandomSource random) {
    ExponentialMechanism m = ExponentialMechanism.builder().epsilon(s.epsilon() / s.l0())
        .sensitivity(s.sensitivity()).monotone(false).randomSource(random).build();
    return new Quantile(m, s.l0());
  }
}
