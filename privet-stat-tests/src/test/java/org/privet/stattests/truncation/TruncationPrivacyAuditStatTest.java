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
 * in advance; each check asserts it does not exceed the claimed ε. Also R2T for a SUM on a
 * fixed-point grid and per group with L0 (issue 25; docs/proofs/r2t-truncation.md, "SUM", "GROUP
 * BY"), each with a power case. False-failure probability: 10^−3
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

  // SUM on the grid 2^-3 (gridExponent 3), GS = 2 value units: one threshold τ = 2^4 = 16 grid
  // units, scale 16/ε = 16, bias ⌈16·ln 10⌉ = 37; the victim (10^9 grid units) is truncated to
  // 16. Event {release ≥ 1}: D needs Z ≥ 38, D' needs Z ≥ 22, a likelihood ratio of e^{16/16}.
  @Test
  void r2tSumOnAGrid_victimWithHugeTotal_withinEpsilon() {
    R2TMechanism m = R2TMechanism.builder().epsilon(1).globalSensitivity(2).gridExponent(3)
        .randomSource(new SeededRandomSource(2515)).build();
    double lower = audit(() -> m.release(EMPTY).value(), () -> m.release(VICTIM_ONLY).value(), 1);
    assertTrue(lower <= 1.0, "audited ε ≥ " + lower);
  }

  @Test
  void r2tSumOnAGrid_noiseNotScaledByTheGrid_caught() {
    RandomSource r = new SeededRandomSource(2516);
    // The bug: truncation at 16 grid units, but noise and bias for a threshold of 2 (scale 2,
    // bias ⌈2·ln 10⌉ = 5), i.e. not scaled by 2^k.
    LongSupplier bugD = () -> Math.max(0, DiscreteLaplace.sample(r, 2, 1) - 5);
    LongSupplier bugDPrime = () -> Math.max(0, 16 + DiscreteLaplace.sample(r, 2, 1) - 5);
    assertTrue(audit(bugD, bugDPrime, 1) > 1.0);
  }

  // GROUP BY, L0 = 2: one R2T per group at ε/(L·L0); GS = 2 (τ = 2), scale 2·2/ε = 4, bias
  // ⌈4·ln 10⌉ = 10 per group. The victim is in both groups. Event {both releases ≥ 1}: per group D
  // needs Z ≥ 11, D' needs Z ≥ 9 (ratio e^{1/2}); both, independently: e^{1} = e^ε, tight.
  private static long both(R2TMechanism m, UnitContributions g) {
    return Math.min(m.release(g).value(), m.release(g).value());
  }

  @Test
  void r2tGroups_victimInL0Groups_withinEpsilon() {
    R2TMechanism m = R2TMechanism.builder().epsilon(1).globalSensitivity(2).groupsPerUnit(2)
        .randomSource(new SeededRandomSource(2517)).build();
    double lower = audit(() -> both(m, EMPTY), () -> both(m, VICTIM_ONLY), 1);
    assertTrue(lower <= 1.0, "audited ε ≥ " + lower);
  }

  @Test
  void r2tGroups_noiseIgnoringL0_caught() {
    // Each group at the full ε (L0 ignored): scale 2, bias ⌈2·ln 10⌉ = 5; ratio e^{2} on the event.
    R2TMechanism m = R2TMechanism.builder().epsilon(1).globalSensitivity(2)
        .randomSource(new SeededRandomSource(2518)).build();
    double lower = audit(() -> both(m, EMPTY), () -> both(m, VICTIM_ONLY), 1);
    assertTrue(lower > 1.0, "power: audited ε ≥ " + lower);
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
