package org.privet.models;

import org.privet.math.Normal;
import org.privet.noise.DiscreteGaussian;
import org.privet.random.RandomSource;

/**
 * Gaussian noise with a density, built from the project's exact samplers: y = g·(Z + U) with Z
 * the exact discrete Gaussian N<sub>ℤ</sub>(0, σ<sub>g</sub>²) (Canonne, Kamath, Steinke 2020,
 * Algorithm 3; {@link DiscreteGaussian}) on the power-of-two grid g = 2<sup>⌊log₂σ⌋−30</sup>
 * (so σ<sub>g</sub> = σ/g ≥ 2<sup>30</sup> steps, σ<sub>g</sub>² rounded up to an integer) and U
 * uniform on [−½, ½) from 53 random bits of {@link RandomSource}.
 *
 * <p>Why not the grid alone: objective perturbation's argument maps the noise b one-to-one onto
 * the output θ and needs a density for b at points that are not on any grid
 * (docs/proofs/dp-models.md). The dithered discrete Gaussian has the piecewise-constant density
 * f(y) = P[Z = k]/g on each cell, and "Transfer" in the proof bounds
 * |ln f(y) − ln φ<sub>σ</sub>(y)| ≤ {@link #logDensityGap} for y outside a tail set of probability
 * e<sup>−x</sup> under both f and the Gaussian φ (Hsu, Kakade, Zhang 2012, Thm. 1, with the
 * discrete Gaussian's σ²-subgaussianity, CKS20; Laurent &amp; Massart 2000 for φ). A mechanism
 * proven for φ therefore holds for f with ε + 2·gap and δ + tails. The gap is about
 * √d·(√d + √(2x))/σ<sub>g</sub> ≈ 10<sup>−7</sup> for d = 100. Floating-point rounding of g·(Z+U)
 * (53 bits) is the usual limitation of real-valued outputs (Mironov 2012), stated in the proof.
 */
final class DitheredGaussian {
  static final int GRID_BITS = 30;

  private final double grid;
  private final long sigmaSqSteps;
  private final double sigma;

  /** Noise of standard deviation at least {@code sigma} (&gt; 0, finite). */
  DitheredGaussian(double sigma) {
    if (!(sigma > 0) || !Double.isFinite(sigma)) {
      throw new IllegalArgumentException("sigma must be positive and finite, was " + sigma);
    }
    this.grid = Math.scalb(1.0, Math.getExponent(sigma) - GRID_BITS);
    double steps = sigma / grid;
    this.sigmaSqSteps = (long) Math.ceil(Math.nextUp(steps * steps));
    this.sigma = grid * Math.sqrt((double) sigmaSqSteps);
  }

  /** The standard deviation σ = g·σ<sub>g</sub> actually used (≥ the requested one). */
  double sigma() {
    return sigma;
  }

  /** σ<sub>g</sub>: the standard deviation in grid steps (rounded down, the safe side for the gap). */
  double sigmaSteps() {
    return Math.floor(Math.sqrt((double) sigmaSqSteps));
  }

  /** One draw. */
  double sample(RandomSource random) {
    long z = DiscreteGaussian.sample(random, sigmaSqSteps, 1);
    return grid * (z + dither(random));
  }

  /** U uniform on [−½, ½), from 53 random bits (the dither of a grid sample). */
  static double dither(RandomSource random) {
    long bits = random.nextLong() >>> 11; // 53 uniform bits
    return (bits + 0.5) * 0x1p-53 - 0.5;
  }

  /** A vector of independent draws. */
  double[] sample(RandomSource random, int dimension) {
    double[] out = new double[dimension];
    for (int i = 0; i < dimension; i++) {
      out[i] = sample(random);
    }
    return out;
  }

  /**
   * The bound on |ln f(y) − ln φ(y)| for a d-dimensional draw outside the tail set of probability
   * e<sup>−x</sup>: (√d·(σ<sub>g</sub>R + √d/2) + d/4)/(2σ<sub>g</sub>²) with
   * R = √(d + 2√(dx) + 2x), plus 10<sup>−300</sup> for the normalising constant (proof:
   * docs/proofs/dp-models.md, "Transfer"). Rounded up.
   */
  double logDensityGap(int dimension, double x) {
    double d = dimension;
    double sg = sigmaSteps();
    double r = Math.sqrt(d + 2 * Math.sqrt(d * x) + 2 * x);
    double gap = (Math.sqrt(d) * (sg * r + Math.sqrt(d) / 2) + d / 4) / (2 * sg * sg) + 1e-300;
    return Math.nextUp(gap * (1 + 1e-12));
  }

  /** The t with P[|N(0,1)| &gt; t] = 2·Φ̄(t) ≤ p (bisection, rounded up). */
  static double twoSidedQuantile(double p) {
    if (!(p > 0 && p < 1)) {
      throw new IllegalArgumentException("probability must be in (0, 1), was " + p);
    }
    double lo = 0;
    double hi = 1;
    while (2 * Normal.upperTail(hi) > p) {
      hi *= 2;
    }
    for (int i = 0; i < 200; i++) {
      double mid = (lo + hi) / 2;
      if (2 * Normal.upperTail(mid) > p) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return Math.nextUp(hi);
  }
}
