package org.privet.server.playground;

import org.privet.accounting.ApproxDp;
import org.privet.accounting.MechanismLoss;
import org.privet.math.Normal;
import org.privet.mechanisms.GaussianMechanism;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.mechanisms.LaplaceMechanism;

/**
 * The playground's "neighbouring datasets" view: a counting-style query whose true answer is 0 on D
 * and Δ on a neighbour D′, released by privet-core's Laplace, Gaussian or geometric mechanism. The
 * noise scale comes from the library's own calibration ({@link LaplaceMechanism#scale()}, {@link
 * GaussianMechanism#sigma()}, {@link GeometricMechanism#scale()}); the densities and the privacy
 * loss ln(p<sub>D</sub>(x)/p<sub>D′</sub>(x)) are the textbook formulas for that scale (Dwork &amp;
 * Roth 2014, Sec. 3.3 and App. A). For the Gaussian, the δ actually spent at ε is the library's
 * exact Balle–Wang profile ({@link MechanismLoss.Gaussian#analyticDelta}), next to the numerical
 * mass of the region where the loss exceeds ε, ∫(p<sub>D</sub> − e<sup>ε</sup>p<sub>D′</sub>)<sup>+</sup>.
 *
 * <p>The hypothesis-testing view: with equal priors the best attacker telling D from D′ by one
 * output is right with probability (1 + TV(p<sub>D</sub>, p<sub>D′</sub>))/2, and (ε, δ)-DP bounds
 * that by (e<sup>ε</sup> + δ)/(1 + e<sup>ε</sup>) (Kairouz, Oh, Viswanath 2015; e<sup>ε</sup>/(1 +
 * e<sup>ε</sup>) for pure DP).
 *
 * @param mechanism {@code laplace}, {@code gaussian} or {@code geometric}
 */
record NeighbouringDensities(String mechanism, double epsilon, double delta, double sensitivity) {
  static final int POINTS = 241;
  /** Bounds that keep each request's work small (the playground is open to anyone). */
  static final double MAX_EPSILON = 50;
  static final double MAX_GEOMETRIC_SENSITIVITY = 1000;
  static final double MAX_GEOMETRIC_SCALE = 10_000;

  NeighbouringDensities {
    switch (mechanism) {
      case "laplace", "gaussian", "geometric" -> { }
      default -> throw new IllegalArgumentException(
          "mechanism must be laplace, gaussian or geometric, was " + mechanism);
    }
    if (!(epsilon > 0 && epsilon <= MAX_EPSILON)) {
      throw new IllegalArgumentException("epsilon must be in (0, " + MAX_EPSILON + "], was " + epsilon);
    }
    if (mechanism.equals("geometric") && (sensitivity != Math.rint(sensitivity) || sensitivity < 1
        || sensitivity > MAX_GEOMETRIC_SENSITIVITY)) {
      throw new IllegalArgumentException("sensitivity must be an integer in [1, " + MAX_GEOMETRIC_SENSITIVITY
          + "] for geometric, was " + sensitivity);
    }
    if (mechanism.equals("geometric") && sensitivity / epsilon > MAX_GEOMETRIC_SCALE) {
      throw new IllegalArgumentException("epsilon: the geometric view needs sensitivity/epsilon of at most "
          + MAX_GEOMETRIC_SCALE + " (its sums run over the integers)");
    }
  }

  boolean discrete() {
    return mechanism.equals("geometric");
  }

  /** δ of the guarantee: the caller's δ for the Gaussian, 0 for the pure mechanisms. */
  double guaranteeDelta() {
    return mechanism.equals("gaussian") ? delta : 0.0;
  }

  /** The library's noise scale: b for Laplace, σ for Gaussian, t for geometric. */
  double scale() {
    return switch (mechanism) {
      case "laplace" -> LaplaceMechanism.builder().epsilon(epsilon).sensitivity(sensitivity).build().scale();
      case "gaussian" -> GaussianMechanism.builder().epsilon(epsilon).delta(delta).sensitivity(sensitivity)
          .build().sigma();
      default -> GeometricMechanism.builder().epsilon(epsilon).sensitivity((long) sensitivity).build().scale();
    };
  }

  /** The output's density (or p.m.f. for geometric) at x when the true answer is {@code centre}. */
  static double density(String mechanism, double scale, double centre, double x) {
    double z = x - centre;
    return switch (mechanism) {
      case "laplace" -> Math.exp(-Math.abs(z) / scale) / (2 * scale);
      case "gaussian" -> Math.exp(-0.5 * (z / scale) * (z / scale)) / (scale * Math.sqrt(2 * Math.PI));
      default -> {
        double a = Math.exp(-1 / scale);
        yield (1 - a) / (1 + a) * Math.pow(a, Math.abs(z));
      }
    };
  }

  /** The x grid: integers for geometric, else POINTS points over [−5s, Δ + 5s]. */
  double[] grid(double scale) {
    double lo = -5 * scale;
    double hi = sensitivity + 5 * scale;
    if (discrete()) {
      long a = (long) Math.floor(lo);
      long b = (long) Math.ceil(hi);
      long step = Math.max(1, (b - a) / (POINTS - 1));
      int n = (int) ((b - a) / step) + 1;
      double[] xs = new double[n];
      for (int i = 0; i < n; i++) {
        xs[i] = a + i * step;
      }
      return xs;
    }
    double[] xs = new double[POINTS];
    for (int i = 0; i < POINTS; i++) {
      xs[i] = lo + (hi - lo) * i / (POINTS - 1);
    }
    return xs;
  }

  /** ln(p_D(x)/p_D′(x)), computed in closed form so that it stays finite in the tails. */
  static double loss(String mechanism, double scale, double sensitivity, double x) {
    return switch (mechanism) {
      case "laplace", "geometric" -> (Math.abs(x - sensitivity) - Math.abs(x)) / scale;
      default -> ((x - sensitivity) * (x - sensitivity) - x * x) / (2 * scale * scale);
    };
  }

  /**
   * Total variation between the outputs on D and D′, and ∫(p_D − e^ε p_D′)^+ (the δ-region's
   * mass), by summation over integers (geometric) or the midpoint rule on a fine grid.
   */
  double[] totalVariationAndDeltaMass(double scale) {
    double e = Math.exp(epsilon);
    double tv = 0;
    double mass = 0;
    if (discrete()) {
      long reach = (long) Math.ceil(60 * scale) + (long) sensitivity;
      for (long k = -reach; k <= reach; k++) {
        double p = density(mechanism, scale, 0, k);
        double q = density(mechanism, scale, sensitivity, k);
        tv += Math.abs(p - q);
        mass += Math.max(0, p - e * q);
      }
      return new double[] {tv / 2, mass};
    }
    double lo = -40 * scale;
    double hi = sensitivity + 40 * scale;
    int n = 200_000;
    double h = (hi - lo) / n;
    for (int i = 0; i < n; i++) {
      double x = lo + (i + 0.5) * h;
      double p = density(mechanism, scale, 0, x);
      double q = density(mechanism, scale, sensitivity, x);
      tv += Math.abs(p - q) * h;
      mass += Math.max(0, p - e * q) * h;
    }
    return new double[] {tv / 2, mass};
  }

  /** The δ the library's exact Gaussian profile says is spent at ε (0 for the pure mechanisms). */
  double profileDelta(double scale) {
    return mechanism.equals("gaussian") ? MechanismLoss.Gaussian.analyticDelta(epsilon, sensitivity, scale) : 0.0;
  }

  /** The best test's accuracy bound (e^ε + δ)/(1 + e^ε) ({@link ApproxDp#bestTestAccuracy}). */
  static double accuracyBound(double epsilon, double delta) {
    return new ApproxDp(epsilon, delta).bestTestAccuracy();
  }

  /** Exact total variation for the ε sweep (no grid): used for the accuracy-versus-ε curve. */
  static double totalVariation(String mechanism, double scale, double sensitivity) {
    return switch (mechanism) {
      case "laplace" -> 1 - Math.exp(-sensitivity / (2 * scale));
      case "gaussian" -> 1 - 2 * Normal.upperTail(sensitivity / (2 * scale));
      default -> {
        long d = (long) sensitivity;
        long reach = (long) Math.ceil(60 * scale) + d;
        double tv = 0;
        for (long k = -reach; k <= reach; k++) {
          tv += Math.abs(density(mechanism, scale, 0, k) - density(mechanism, scale, d, k));
        }
        yield Math.min(1, tv / 2);
      }
    };
  }
}
