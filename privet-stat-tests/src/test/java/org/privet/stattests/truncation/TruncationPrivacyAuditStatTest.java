package org.privet.stattests.truncation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.privet.mechanisms.truncation.QuantileThresholdMechanism;
import org.privet.mechanisms.truncation.R2TMechanism;
import org.privet.mechanisms.truncation.UnitContributions;
import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;
import org.privet.testing.PrivacyAudit;
import org.privet.testing.SeededRandomSource;

/**
 * Empirical privacy audits on neighbouring join instances: D' is D plus one customer whose orders
 * and line items contribute far more than the public bound GS (a victim with thousands of rows).
 * The audit ({@link PrivacyAudit}, Clopper–Pearson) gives a lower bound on ε from one event fixed
 * in advance; each check asserts it does not exceed the claimed ε. False-failure probability: 10^−3
 * per audit (the bound is valid at confidence 0.999). Power: the same audit run on a simulated R2T
 * with 30% less noise, and on a variant that forgets to truncate, must exceed ε. Fixed seeds.
 */
class TruncationPrivacyAuditStatTest {
  private static final int TRIALS = 200_000;
  private static final double CONFIDENCE = 0.999;
  private static final long VICTIM = 1_000_000_000L;

  private static double audit(LongSupplier onD, LongSupplier onDPrime, long eventAtLeast) {
    long hitsD = 0;
    long hitsDPrime = 0;
    for (int i = 0; i < TRIALS; i++) {
      hitsD += onD.getAsLong() >= eventAtLeast ? 1 : 0;
      hitsDPrime += onDPrime.getAsLong() >= eventAtLeast ? 1 : 0;
    }
    return PrivacyAudit.epsilonLowerBound(hitsD, TRIALS, hitsDPrime, TRIALS, CONFIDENCE);
  }

  // R2T with GS = 2 (one threshold, τ = 2, scale 2/ε, bias ⌈2·ln 10⌉ = 5) at ε = 1 is tight on
  // the event {release ≥ 1}: D (no unit) needs Z ≥ 6, D' (victim truncated to 2) needs Z ≥ 4, a
  // likelihood ratio of exactly e^{2/2} = e^ε.
  private static final UnitContributions EMPTY = UnitContributions.of(new long[0]);
  private static final UnitContributions VICTIM_ONLY = UnitContributions.of(new long[] {VICTIM});

  @Test
  void r2t_victimWithHugeContribution_withinEpsilon() {
    R2TMechanism m =
        R2TMechanism.builder()
            .epsilon(1)
            .globalSensitivity(2)
            .randomSource(new SeededRandomSource(2511))
            .build();
    double lower = audit(() -> m.release(EMPTY).value(), () -> m.release(VICTIM_ONLY).value(), 1);
    assertTrue(lower <= 1.0, "audited ε ≥ " + lower);
  }

  @Test
  void r2t_thirtyPercentLessNoise_caught() {
    RandomSource r = new SeededRandomSource(2512);
    // max(0, Q(I, 2) + Z − 5) with Z of scale 0.7·2 = 14/10.
    LongSupplier weakD = () -> Math.max(0, DiscreteLaplace.sample(r, 14, 10) - 5);
    LongSupplier weakDPrime = () -> Math.max(0, 2 + DiscreteLaplace.sample(r, 14, 10) - 5);
    double lower = audit(weakD, weakDPrime, 1);
    assertTrue(lower > 1.0, "power: audited ε ≥ " + lower);
  }

  @Test
  void r2t_forgottenTruncation_caught() {
    RandomSource r = new SeededRandomSource(2513);
    // Adds the untruncated sum (the victim's 10^9) with R2T's noise: the bug truncation prevents.
    LongSupplier bugD = () -> Math.max(0, DiscreteLaplace.sample(r, 2, 1) - 5);
    LongSupplier bugDPrime = () -> Math.max(0, VICTIM + DiscreteLaplace.sample(r, 2, 1) - 5);
    assertTrue(audit(bugD, bugDPrime, 1) > 1.0);
  }

  @Test
  void quantile_victimWithHugeContribution_withinEpsilon() {
    // D: 100 customers contributing 1..100; D' adds the victim. ε = 1, GS = 1024.
    UnitContributions d = UnitContributions.of(LongStream.rangeClosed(1, 100).toArray());
    UnitContributions dPrime =
        UnitContributions.of(
            LongStream.concat(LongStream.rangeClosed(1, 100), LongStream.of(VICTIM)).toArray());
    QuantileThresholdMechanism m =
        QuantileThresholdMechanism.builder()
            .epsilon(1)
            .globalSensitivity(1024)
            .randomSource(new SeededRandomSource(2514))
            .build();
    // Event fixed in advance: the release reaches Σ_{u ≤ 100} u + 64 (about the victim's
    // truncated share when τ ≥ 64).
    double lower = audit(() -> m.release(d).value(), () -> m.release(dPrime).value(), 5050 + 64);
    assertTrue(lower <= 1.0, "audited ε ≥ " + lower);
  }
}
