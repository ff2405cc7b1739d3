package org.privet.engine.release;

import java.util.function.BiFunction;
import java.util.function.LongUnaryOperator;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.mechanisms.ConfidenceInterval;
import org.privet.mechanisms.DiscreteGaussianMechanism;
import org.privet.mechanisms.ExponentialMechanism;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.random.RandomSource;

/** Instantiates the core mechanisms of a compiled query's {@link Release}s. */
public final class Releases {
  private Releases() {}

  /** Additive integer noise (geometric or discrete Gaussian) on fixed-point values. */
  public interface Noise {
    long release(long exact);

    ConfidenceInterval interval(long released, double beta);

    PrivacyLoss privacyLoss();

    double stddev();

    double halfWidth(double beta);

    /** True for discrete Gaussian noise, false for discrete Laplace (geometric) noise. */
    boolean gaussian();

    /** The noise's scale: σ of a discrete Gaussian, t of a discrete Laplace (q = e^−1/t). */
    double scale();
  }

  public static Noise noise(MechanismSpec spec, RandomSource random) {
    if (spec instanceof MechanismSpec.Geometric g) {
      GeometricMechanism m = GeometricMechanism.builder().epsilon(g.epsilon())
          .sensitivity(g.sensitivity()).randomSource(random).build();
      double q = Math.exp(-1 / m.scale());
      double scale = m.scale();
      return new Adapter(m::release, m::confidenceInterval, m.privacyLoss(),
          Math.sqrt(2 * q) / (1 - q), false, scale);
    }
    MechanismSpec.DiscreteGaussian d = (MechanismSpec.DiscreteGaussian) spec;
    DiscreteGaussianMechanism.Builder b = DiscreteGaussianMechanism.builder().rho(d.rho())
        .sensitivity(d.sensitivity()).randomSource(random);
    if (d.squaredSensitivity() > 0) {
      b.squaredSensitivity(d.squaredSensitivity());
    }
    DiscreteGaussianMechanism m = b.build();
    double sigma = m.sigma();
    return new Adapter(m::release, m::confidenceInterval, m.privacyLoss(), sigma, true, sigma);
  }

  /** A core integer mechanism seen through {@link Noise}. */
  private record Adapter(LongUnaryOperator releaser,
      BiFunction<Long, Double, ConfidenceInterval> intervals, PrivacyLoss privacyLoss,
      double stddev, boolean gaussian, double scale)
      implements Noise {
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
  public static final class Quantile {
    private final ExponentialMechanism mechanism;
    private final int l0;

    private Quantile(ExponentialMechanism mechanism, int l0) {
      this.mechanism = mechanism;
      this.l0 = l0;
    }

    public int select(double[] utilities) {
      return mechanism.select(utilities);
    }

    /** The loss over the ≤ L0 groups one unit touches (basic composition), rounded up. */
    public PrivacyLoss privacyLossOverGroups() {
      return new PureDp(Math.nextUp(mechanism.privacyLoss().epsilon() * l0));
    }

    public double rankErrorBound(int candidates, double beta) {
      return mechanism.utilityErrorBound(candidates, beta);
    }
  }

  public static Quantile quantile(MechanismSpec.Exponential s, RandomSource random) {
    ExponentialMechanism m = ExponentialMechanism.builder().epsilon(s.epsilon() / s.l0())
        .sensitivity(s.sensitivity()).monotone(false).randomSource(random).build();
    return new Quantile(m, s.l0());
  }
}
