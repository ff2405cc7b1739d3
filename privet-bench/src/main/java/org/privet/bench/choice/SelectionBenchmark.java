package org.privet.bench.choice;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.privet.mechanisms.ExponentialMechanism;
import org.privet.mechanisms.PermuteAndFlip;
import org.privet.mechanisms.ReportNoisyMax;

/**
 * Exact selection mechanisms over many candidates against a naive (insecure, floating-point)
 * exponential mechanism in the same run. Utilities: "quantile" = −|i − k/2| (the DP-quantile
 * shape: one peak), "huge" = the same scaled by 10^12 (huge utility range), both with Δ = 1.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SelectionBenchmark {

  @Param({"10000"})
  int candidates;

  @Param({"quantile", "huge"})
  String shape;

  double[] utilities;
  ExponentialMechanism exponential;
  PermuteAndFlip permuteAndFlip;
  ReportNoisyMax noisyMaxLaplace;
  SplittableRandom naiveRandom;

  @Setup
  public void setUp() {
    utilities = new double[candidates];
    double scale = shape.equals("huge") ? 1e12 : 1;
    for (int i = 0; i < candidates; i++) {
      utilities[i] = -Math.abs(i - candidates / 2) * scale;
    }
    exponential = ExponentialMechanism.builder().epsilon(1).sensitivity(1).build();
    permuteAndFlip = PermuteAndFlip.builder().epsilon(1).sensitivity(1).build();
    noisyMaxLaplace = ReportNoisyMax.builder().epsilon(1).sensitivity(1).build();
    naiveRandom = new SplittableRandom(1);
  }

  @Benchmark
  public int exactExponential() {
    return exponential.select(utilities);
  }

  @Benchmark
  public int exactPermuteAndFlip() {
    return permuteAndFlip.select(utilities);
  }

  @Benchmark
  public int exactNoisyMaxLaplace() {
    return noisyMaxLaplace.select(utilities);
  }

  /** The textbook floating-point implementation (not private: Ilvento 2020). Baseline only. */
  @Benchmark
  public int naiveFloatingPointExponential() {
    double max = Double.NEGATIVE_INFINITY;
    for (double u : utilities) {
      max = Math.max(max, u);
    }
    double[] w = new double[utilities.length];
    double sum = 0;
    for (int i = 0; i < w.length; i++) {
      w[i] = Math.exp(0.5 * (utilities[i] - max));
      sum += w[i];
    }
    double target = naiveRandom.nextDouble() * sum;
    for (int i = 0; i < w.length; i++) {
      target -= w[i];
      if (target <= 0) {
        return i;
      }
    }
    return w.length - 1;
  }
}
