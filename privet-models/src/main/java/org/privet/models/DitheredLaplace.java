package org.privet.models;

import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;

/**
 * Laplace noise with a density, built from the project's exact sampler: y = g·(Z + U) with Z the
 * exact discrete Laplace of scale t = ⌈λ/g⌉ steps (Canonne, Kamath, Steinke 2020, Algorithm 2;
 * {@link DiscreteLaplace}) on the power-of-two grid g = 2<sup>⌊log₂λ⌋−30</sup> (so t ≥ 2<sup>30</sup>)
 * and U uniform on [−½, ½) from 53 random bits. Its density is f(y) = P[Z = k]/g on each cell;
 * against the Laplace density of scale λ' = g·t ≥ λ it satisfies, everywhere (no tail set),
 * |ln f(y) − ln φ<sub>λ'</sub>(y)| ≤ 1/(2t) + 1/(6t²) per coordinate: the exponent moves by at
 * most half a cell, and the normalising constants differ by the factor 2t·tanh(1/(2t)) ∈
 * [1 − 1/(12t²), 1] (docs/proofs/dp-models.md, "Pure-ε objective perturbation").
 */
final class DitheredLaplace {
  static final int GRID_BITS = 30;

  private final double grid;
  private final long steps;

  /** Noise of scale at least {@code lambda} (&gt; 0, finite). */
  DitheredLaplace(double lambda) {
    if (!(lambda > 0) || !Double.isFinite(lambda)) {
      throw new IllegalArgumentException("scale must be positive and finite, was " + lambda);
    }
    this.grid = Math.scalb(1.0, Math.getExponent(lambda) - GRID_BITS);
    this.steps = (long) Math.ceil(lambda / grid);
  }

  /** The scale λ' = g·t actually used (≥ the requested one; exact: t &lt; 2^32). */
  double scale() {
    return grid * steps;
  }

  /** The bound on |ln f − ln φ| for a d-dimensional draw (every coordinate's bound, summed), rounded up. */
  double logDensityGap(int dimension) {
    double t = steps;
    return Math.nextUp(dimension * (1 / (2 * t) + 1 / (6 * t * t)) * (1 + 1e-12));
  }

  /** One draw. */
  double sample(RandomSource random) {
    long z = DiscreteLaplace.sample(random, steps, 1);
    return grid * (z + DitheredGaussian.dither(random));
  }

  /** A vector of independent draws. */
  double[] sample(RandomSource random, int dimension) {
    double[] out = new double[dimension];
    for (int i = 0; i < dimension; i++) {
      out[i] = sample(random);
    }
    return out;
  }
}
