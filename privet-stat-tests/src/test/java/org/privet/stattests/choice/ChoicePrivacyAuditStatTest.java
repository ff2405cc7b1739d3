package org.privet.stattests.choice;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.privet.mechanisms.ExponentialMechanism;
import org.privet.mechanisms.PermuteAndFlip;
import org.privet.mechanisms.RandomizedResponse;
import org.privet.mechanisms.ReportNoisyMax;
import org.privet.mechanisms.SparseVector;
import org.privet.random.RandomSource;
import org.privet.testing.PrivacyAudit;
import org.privet.testing.SeededRandomSource;

/**
 * Empirical privacy audits of the choice mechanisms: run each on two neighbouring inputs, count
 * one event, and derive a Clopper–Pearson lower bound on ε at confidence {@value #CONFIDENCE}; it
 * must not exceed the claimed ε. A correct mechanism fails an audit with probability at most
 * 1 − {@value #CONFIDENCE}. Where the chosen neighbours and event are (nearly) worst case, the
 * audit also shows power: the mechanism run with ε 30% too large is caught (its lower bound
 * exceeds the claim).
 */
class ChoicePrivacyAuditStatTest {
  static final double CONFIDENCE = 0.999;
  static final int N = 200_000;

  private static double audit(BooleanSupplier onA, BooleanSupplier onB) {
    return audit(onA, onB, N);
  }

  private static double audit(BooleanSupplier onA, BooleanSupplier onB, int n) {
    long a = 0;
    long b = 0;
    for (int i = 0; i < n; i++) {
      a += onA.getAsBoolean() ? 1 : 0;
      b += onB.getAsBoolean() ? 1 : 0;
    }
    return PrivacyAudit.epsilonLowerBound(a, n, b, n, CONFIDENCE);
  }

  private static RandomSource seed(long s) {
    return new SeededRandomSource(s);
  }

  @Test
  void randomizedResponse_binary_auditBelowClaimAndCatchesLargerEpsilon() {
    RandomizedResponse m = RandomizedResponse.builder().epsilon(1).randomSource(seed(501)).build();
    double eps = audit(() -> m.respond(true), () -> m.respond(false));
    assertTrue(eps <= 1 && eps > 0.9, "audit " + eps);
    RandomizedResponse bad =
        RandomizedResponse.builder().epsilon(1.3).randomSource(seed(502)).build();
    double badEps = audit(() -> bad.respond(true), () -> bad.respond(false));
    assertTrue(badEps > 1, "epsilon 30% too large must be caught: " + badEps);
  }

  @Test
  void randomizedResponse_twoCoin_auditBelowLn3() {
    RandomizedResponse m = RandomizedResponse.builder().twoCoin().randomSource(seed(503)).build();
    double eps = audit(() -> m.respond(true), () -> m.respond(false));
    assertTrue(eps <= m.privacyLoss().epsilon() && eps > 1.0, "audit " + eps);
  }

  @Test
  void randomizedResponse_kary_auditBelowClaimAndCatchesLargerEpsilon() {
    RandomizedResponse m =
        RandomizedResponse.builder().epsilon(1).categories(5).randomSource(seed(504)).build();
    double eps = audit(() -> m.respond(0) == 0, () -> m.respond(1) == 0);
    assertTrue(eps <= 1 && eps > 0.85, "audit " + eps);
    RandomizedResponse bad =
        RandomizedResponse.builder().epsilon(1.3).categories(5).randomSource(seed(505)).build();
    double badEps = audit(() -> bad.respond(0) == 0, () -> bad.respond(1) == 0);
    assertTrue(badEps > 1, "epsilon 30% too large must be caught: " + badEps);
  }

  /** u = (0, ..., 0) and its neighbour u' = (1, −1, ..., −1): every utility moves by Δ = 1. */
  private static final int K = 100;

  private static double[] flat() {
    return new double[K];
  }

  private static double[] tilted() {
    return tilted(K);
  }

  private static double[] tilted(int k) {
    double[] u = new double[k];
    java.util.Arrays.fill(u, -1);
    u[0] = 1;
    return u;
  }

  @Test
  void exponentialMechanism_auditBelowClaimAndCatchesLargerEpsilon() {
    double[] a = tilted();
    double[] b = flat();
    ExponentialMechanism m =
        ExponentialMechanism.builder().epsilon(1).sensitivity(1).randomSource(seed(506)).build();
    double eps = audit(() -> m.select(a) == 0, () -> m.select(b) == 0);
    // Exact ratio: K e^{ε/2}/(e^{ε/2} + (K−1)e^{−ε/2}) = e^{0.983}.
    assertTrue(eps <= 1 && eps > 0.75, "audit " + eps);
    ExponentialMechanism bad =
        ExponentialMechanism.builder().epsilon(1.3).sensitivity(1).randomSource(seed(507)).build();
    double badEps = audit(() -> bad.select(a) == 0, () -> bad.select(b) == 0);
    assertTrue(badEps > 1, "epsilon 30% too large must be caught: " + badEps);
  }

  @Test
  void exponentialMechanism_monotone_auditBelowClaim() {
    double[] a = flat();
    a[0] = 1; // monotone neighbour: one utility moves up by Δ, the others stay
    double[] b = flat();
    ExponentialMechanism m = ExponentialMechanism.builder().epsilon(1).sensitivity(1)
        .monotone(true).randomSource(seed(508)).build();
    double eps = audit(() -> m.select(a) == 0, () -> m.select(b) == 0);
    assertTrue(eps <= 1 && eps > 0.75, "audit " + eps);
  }

  @Test
  void permuteAndFlip_auditBelowClaimAndCatchesLargerEpsilon() {
    double[] a = tilted();
    double[] b = flat();
    PermuteAndFlip m =
        PermuteAndFlip.builder().epsilon(1).sensitivity(1).randomSource(seed(509)).build();
    double eps = audit(() -> m.select(a) == 0, () -> m.select(b) == 0);
    assertTrue(eps <= 1 && eps > 0.75, "audit " + eps);
    PermuteAndFlip bad =
        PermuteAndFlip.builder().epsilon(1.3).sensitivity(1).randomSource(seed(510)).build();
    double badEps = audit(() -> bad.select(a) == 0, () -> bad.select(b) == 0);
    assertTrue(badEps > 1, "epsilon 30% too large must be caught: " + badEps);
  }

  @Test
  void reportNoisyMax_laplace_auditBelowClaim() {
    // 30 candidates and 100,000 runs per input keep the 6M discrete Laplace draws to a few seconds.
    double[] a = tilted(30);
    double[] b = new double[30];
    ReportNoisyMax m =
        ReportNoisyMax.builder().epsilon(1).sensitivity(1).randomSource(seed(511)).build();
    double eps = audit(() -> m.select(a) == 0, () -> m.select(b) == 0, 100_000);
    assertTrue(eps <= 1 && eps > 0.5, "audit " + eps);
  }

  @Test
  void reportNoisyMax_gumbel_auditBelowClaim() {
    double[] a = tilted();
    double[] b = flat();
    ReportNoisyMax m = ReportNoisyMax.builder().epsilon(1).sensitivity(1)
        .noise(ReportNoisyMax.Noise.GUMBEL).randomSource(seed(512)).build();
    double eps = audit(() -> m.select(a) == 0, () -> m.select(b) == 0);
    assertTrue(eps <= 1 && eps > 0.75, "audit " + eps);
  }

  @Test
  void sparseVector_auditBelowClaim() {
    // Neighbours move every answer by Δ = 1: q = (1, 1, 1, −1) vs (0, 0, 0, 0), threshold 0.
    // Event: the ⊤ comes at the last query (the pattern the privacy proof bounds).
    RandomSource ra = seed(513);
    RandomSource rb = seed(514);
    double eps = audit(() -> lastOnly(ra, new double[] {1, 1, 1, -1}),
        () -> lastOnly(rb, new double[] {0, 0, 0, 0}));
    assertTrue(eps <= 1 && eps > 0.1, "audit " + eps);
  }

  private static boolean lastOnly(RandomSource random, double[] answers) {
    SparseVector sv = SparseVector.builder().epsilon(1).sensitivity(1).threshold(0)
        .randomSource(random).build();
    for (int i = 0; i < answers.length - 1; i++) {
      if (sv.test(answers[i])) {
        return false;
      }
    }
    return sv.test(answers[answers.length - 1]);
  }
}
