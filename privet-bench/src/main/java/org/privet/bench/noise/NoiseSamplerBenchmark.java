package org.privet.bench.noise;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.privet.mechanisms.GaussianMechanism;
import org.privet.mechanisms.LaplaceMechanism;
import org.privet.noise.DiscreteGaussian;
import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;

/**
 * Throughput of Privet's secure noise next to a naive, insecure baseline in the same run, one
 * thread. The baseline is textbook inverse-CDF Laplace from {@link SplittableRandom} doubles —
 * exactly the floating-point sampler Mironov (2012) attacks — so the ratio is the price of
 * exactness and of the CSPRNG. See docs/benchmarks.md ("Noise samplers").
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class NoiseSamplerBenchmark {
  private SplittableRandom naive;
  private RandomSource secure;
  private LaplaceMechanism laplace;
  private GaussianMechanism gaussian;

  @Setup
  public void setUp() {
    naive = new SplittableRandom(42);
    secure = RandomSource.secure();
    laplace = LaplaceMechanism.builder().epsilon(1).sensitivity(1).build();
    gaussian = GaussianMechanism.builder().epsilon(1).delta(1e-6).sensitivity(1).build();
  }

  /** Insecure baseline: inverse-CDF Laplace(1) from a double uniform. */
  @Benchmark
  public double naiveLaplace() {
    double u = naive.nextDouble() - 0.5;
    return -Math.signum(u) * Math.log(1 - 2 * Math.abs(u));
  }

  /** The CSPRNG alone: one 64-bit word. */
  @Benchmark
  public long secureNextLong() {
    return secure.nextLong();
  }

  /** Secure, grid-safe Laplace(1) release (ε = 1, Δ = 1). */
  @Benchmark
  public double secureLaplace() {
    return laplace.release(0.0);
  }

  /** Secure, grid-safe Gaussian release (ε = 1, δ = 1e-6, Δ = 1, analytic σ). */
  @Benchmark
  public double secureGaussian() {
    return gaussian.release(0.0);
  }

  /** Exact discrete Laplace with scale 10. */
  @Benchmark
  public long discreteLaplace() {
    return DiscreteLaplace.sample(secure, 10, 1);
  }

  /** Exact discrete Gaussian with σ² = 100. */
  @Benchmark
  public long discreteGaussian() {
    return DiscreteGaussian.sample(secure, 100, 1);
  }
}
