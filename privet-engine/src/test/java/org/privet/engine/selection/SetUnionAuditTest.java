package org.privet.engine.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.testing.PrivacyAudit;
import org.privet.testing.SeededRandomSource;

/**
 * ε-side privacy audit of the policy Gaussian set union ({@link SetUnionSelection}; Gopi et al.
 * 2020, "Differentially Private Set Union"; argument in {@code docs/proofs/dp-set-union.md}, part
 * (d)): a group g present in both neighbouring unit lists. The δ side (a group only the added unit
 * reaches) is audited in {@link SetUnionSelectionTest}.
 *
 * <p><b>Neighbours.</b> D: 4 units whose kept group is g; D' = D plus a victim unit whose kept
 * group is g. Every unit adds exactly weight 1 to g (its gap to Γ ≈ 8 exceeds 1), so g weighs
 * exactly 4 in D and 5 in D' in every order (checked on {@link SetUnionSelection#weights}): the
 * victim moves g by the full ℓ2 sensitivity. This is the worst case for any event on g: a victim
 * with more groups splits its ℓ2 budget and moves g less, and since binarising one Gaussian
 * coordinate is the likelihood-ratio test, "g released" attains the mechanism's exact privacy
 * profile at the δ' whose optimal cut it sits at (δ' = 0.05 for the cut below: the event's ratio
 * ln((P_D' − δ')/P_D) = 2.68 equals the Gaussian profile there), up to sampling error. The
 * mechanism runs in full: {@link SetUnionSelection#select} with L0 = 5 (shuffle, ℓ2-descent on the
 * fine grid, flooring, exact discrete Gaussian), 80 000 times on each list, counting "g released".
 *
 * <p><b>Claim compared against.</b> The stated δ-approximate ρ-zCDP with ρ = 1 and the mechanism's
 * δ, converted by the project's {@link ApproxZcdp#toApproxDp} (Canonne, Kamath, Steinke 2020
 * conversion, {@code ZcdpConversion}) at δ' ∈ {0.01, 0.02, 0.05, 0.1, 0.2}: the pairs
 * (ε(ρ, δ'), δ + δ'). Each Clopper–Pearson lower bound ({@link PrivacyAudit}) uses the event's
 * counts at that pair's δ; all five come from the same two counts and the same interval endpoints,
 * so they hold together with probability ≥ 0.999: the test with the stated noise fails by chance
 * with probability ≤ 1e-3 (its non-vacuity check below adds a negligible amount), the power test
 * misses 30% too little noise with probability about 2e-4 (below), so the class fails by chance
 * with probability below 1.3e-3.
 *
 * <p><b>Where the threshold sits, and why not at a release probability of 1/2.</b> At P ≈ 1/2 (R
 * halfway between g's weights in D and D', P_D ≈ 0.24, P_D' ≈ 0.76 with ρ = 1) the event's ratio is
 * small: ln((0.76 − δ')/0.24) ≈ 1.01 at δ' = 0.1 (1.17 with σ/1.3), against the claimed 2.86, so no
 * trial count would catch 30% too little noise there. The likelihood ratio of a Gaussian grows in
 * the tail, and the (ε, δ) claim bounds that ratio once δ + δ' is subtracted; so the threshold R
 * sits CUT = 2.6 σ above g's weight in D (P_D ≈ 0.005, P_D' ≈ 0.12 with the stated noise, ≈ 0.22
 * with σ/1.3), where σ/1.3 is most clearly beyond the claim at 80 000 trials. Unit weights are
 * integers, so to place R there the mechanism's own δ (public, a parameter of the configuration
 * audited) is chosen as the proven tail bound at that threshold ({@link
 * SetUnionSelection#layerTail}); it comes out below 1e-10, so the claim's δ is δ' plus a negligible
 * amount. The same procedure places R for the weak configuration at 2.6 of its own σ.
 *
 * <p><b>Why ρ = 1 and the expected gap.</b> Even a perfect audit of this mechanism cannot reach the
 * claim: for a one-dimensional Gaussian with shift 1/σ = √2 the exact privacy profile at δ' = 0.1
 * is ε = 2.12, while the zCDP conversion states 2.86 (0.05: 2.68 against 3.37). With σ/1.3 the
 * exact profile (3.31 at δ' = 0.1) lies above the claim, but the margin is narrow (3.27 − 2.86 for
 * this event); at smaller ρ it is narrower still relative to the sampling error (at ρ = 0.125 not
 * even 100 000 trials separate them), so the audit uses ρ = 1.
 *
 * <p><b>Power.</b> A configuration with 30% too little noise ({@code SetUnionSelection.of(1.69ρ,
 * ·)}: σ/1.3, threshold computed for its own σ, still stating ρ) must give a lower bound above the
 * claim at some δ'. Its event has P_D ≈ 0.0047, P_D' ≈ 0.22; simulating the two binomial counts
 * with these probabilities (20 000 repetitions), the lower bound at δ' = 0.1 exceeds the claim by
 * 0.19 in the median and no repetition missed (normal approximation at δ' = 0.1 alone: a miss
 * chance of about 2e-4). With 60 000 trials the miss chance would be about 2e-3, hence 80 000. The
 * stated-noise test also checks the audit is not vacuous (its best lower bound is above 2; expected
 * about 2.9, more than ten standard deviations above 2).
 *
 * <p><b>Figures</b> (seeds 1701 and 1702, 80 000 trials per list, confidence 0.999), printed by the
 * tests: stated noise, g released 9 515 times on D' and 342 on D; lower bounds 3.01, 2.91, 2.53,
 * 1.05, 0 against claims 4.34, 3.95, 3.37, 2.86, 2.22 (δ' = 0.01 … 0.2), worst margin −0.85. σ/1.3:
 * 17 850 and 338; lower bounds 3.70, 3.65, 3.49, 3.13, 1.24 against the same claims, caught at δ' =
 * 0.05 (+0.11) and 0.1 (+0.28); seed 1702 is on the lucky side: seeds 2001 to 2004 (run once, not
 * kept) gave worst margins +0.14, +0.17, +0.17, +0.18. About 10 s per test with the machine at load
 * 5 to 6 on 2 cores: {@code mvn -o -pl privet-engine test -Dtest=SetUnionAuditTest}.
 */
class SetUnionAuditTest {
  private static final double RHO = 1.0;
  private static final int L0 = 5;
  /** D's units on g; D' has one more. */
  private static final int UNITS_ON_G = 4;
  /** R sits CUT standard deviations of the mechanism's noise above g's weight in D. */
  private static final double CUT = 2.6;
  private static final int TRIALS = 80_000;
  private static final double CONFIDENCE = 0.999;
  private static final double[] CONVERSION_DELTAS = {0.01, 0.02, 0.05, 0.1, 0.2};

  /**
   * Set union spending {@code rho} with L0 = 5, its δ chosen (from public parameters only) so
   * that the threshold R is CUT·σ above weight UNITS_ON_G.
   */
  private static SetUnionSelection placed(double rho) {
    SetUnionSelection probe = SetUnionSelection.of(rho, 1e-9, L0);
    int k = probe.gridBits();
    long[] s2 = probe.sigmaSquaredRational();
    double sigmaSq = (double) s2[0] / s2[1];
    long target = ((long) UNITS_ON_G << k) + Math.round(CUT * Math.sqrt(sigmaSq));
    double delta = SetUnionSelection.layerTail(target, SetUnionSelection.layerSteps(k, L0),
        sigmaSq);
    SetUnionSelection s = SetUnionSelection.of(rho, delta, L0);
    assertEquals(k, s.gridBits());
    double cut = (s.threshold() - UNITS_ON_G) / s.sigma();
    assertEquals(CUT, cut, 1e-3, "R placed at " + cut + "σ");
    assertTrue(s.delta() < 1e-10, "the mechanism's own δ is negligible: " + s.delta());
    return s;
  }

  private static List<int[]> unitsOnG(int n) {
    List<int[]> units = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      units.add(new int[] {0});
    }
    return units;
  }

  /** How often g is released over TRIALS runs on {@code units}. */
  private static long releases(SetUnionSelection s, List<int[]> units, SeededRandomSource r) {
    long hits = 0;
    for (int i = 0; i < TRIALS; i++) {
      hits += s.select(units, 1, r)[0] ? 1 : 0;
    }
    return hits;
  }

  /**
   * The audit's outcome over the conversion slacks: the largest lower bound and the largest
   * (lower bound − claimed ε), the claim being δ-approximate RHO-zCDP with the mechanism's δ.
   */
  private record Outcome(double lowerBound, double margin) {}

  private static Outcome audit(SetUnionSelection s, long seed, String label) {
    List<int[]> d = unitsOnG(UNITS_ON_G);
    List<int[]> dPrime = unitsOnG(UNITS_ON_G + 1);
    long one = 1L << s.weightBits();
    assertEquals(one, s.weights(dPrime, 1)[0] - s.weights(d, 1)[0],
        "the victim moves g by exactly the sensitivity 1");
    SeededRandomSource r = new SeededRandomSource(seed);
    long hitsD = releases(s, d, r);
    long hitsDPrime = releases(s, dPrime, r);
    double worst = Double.NEGATIVE_INFINITY;
    double best = 0;
    StringBuilder line = new StringBuilder();
    for (double slack : CONVERSION_DELTAS) {
      ApproxDp claim = new ApproxZcdp(RHO, s.delta()).toApproxDp(slack);
      double lb = PrivacyAudit.epsilonLowerBound(hitsDPrime, TRIALS, hitsD, TRIALS, CONFIDENCE,
          claim.delta());
      worst = Math.max(worst, lb - claim.epsilon());
      best = Math.max(best, lb);
      line.append(String.format(" δ'=%s: %.3f/%.3f", slack, lb, claim.epsilon()));
    }
    System.out.printf("Set union ε audit (%s, σ=%.4f, δ=%.2e): g released D' %d, D %d of %d;"
        + " lower bound/claim%s; worst margin %.3f%n", label, s.sigma(), s.delta(), hitsDPrime,
        hitsD, TRIALS, line, worst);
    return new Outcome(best, worst);
  }

  @Test
  void audit_sharedGroupBelowThreshold_statedNoise_lowerBoundWithinClaim() {
    Outcome o = audit(placed(RHO), 1701, "stated noise");
    assertTrue(o.margin() <= 0, "an ε lower bound exceeds the claim by " + o.margin());
    assertTrue(o.lowerBound() > 2, "the audit sees the victim: lower bound " + o.lowerBound());
  }

  @Test
  void audit_sharedGroupBelowThreshold_thirtyPercentLessNoise_isCaught() {
    SetUnionSelection stated = placed(RHO);
    SetUnionSelection weak = placed(RHO * 1.69);
    assertEquals(stated.sigma() / 1.3, weak.sigma(), 1e-6 * stated.sigma(), "σ/1.3");
    double margin = audit(weak, 1702, "σ/1.3 claimed as ρ = 1").margin();
    assertTrue(margin > 0, "σ/1.3 stated as ρ = 1 must be caught; worst margin " + margin);
  }
}
