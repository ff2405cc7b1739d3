package org.privet.bench.accounting;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.pld.PldAccountant;
import org.privet.accounting.PoissonSubsampled;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.RdpAccountant;

/**
 * Composing 10,000 Poisson-subsampled Gaussian steps (DP-SGD: noise multiplier 1.1, q = 0.004, δ =
 * 10⁻⁵) with the PLD and RDP accountants, single thread. Baseline in the same run: basic
 * composition of 10,000 pure-ε events (a plain directed sum).
 *
 * <p>Run: {@code java -jar privet-bench/target/benchmarks.jar org.privet.bench.accounting}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Threads(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class AccountingBenchmark {
  private final List<PrivacyLoss> dpSgd =
      Collections.nCopies(10_000, new PoissonSubsampled(new MechanismLoss.Gaussian(1.1), 0.004));
  private final List<PrivacyLoss> pure = Collections.nCopies(10_000, new PureDp(0.01));
  private final PldAccountant pld = new PldAccountant();
  private final RdpAccountant rdp = new RdpAccountant();

  @Benchmark
  public ApproxDp pld10kSubsampledGaussian() {
    return pld.compose(dpSgd, 1e-5);
  }

  @Benchmark
  public ApproxDp rdp10kSubsampledGaussian() {
    return rdp.compose(dpSgd, 1e-5);
  }

  @Benchmark
  public ApproxDp baselineBasic10kPure() {
    return BasicAccountant.INSTANCE.compose(pure, 0.0);
  }
}
