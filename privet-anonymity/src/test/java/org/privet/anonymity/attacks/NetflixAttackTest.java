package org.privet.anonymity.attacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * The Netflix Prize attack (Narayanan &amp; Shmatikov 2008): Scoreboard-RH's score and eccentricity
 * test on hand-made tables (expected values computed by hand, below), the paper's headline figure
 * on the seeded default-scale table, and the DP release held to e^ε·chance.
 *
 * <p>False-failure probability: the figures are deterministic given the seed. Over fresh seeds, the
 * re-identification assertion fails only if 500 targets re-identified with probability about 0.99
 * yield fewer than 400 successes (far below 10⁻⁶⁰). The default-scale "within chance" check
 * compares one-sided 99.9% Clopper–Pearson bounds (members' lower, non-members' upper): at most
 * 0.002, treating the 500 targets as independent trials, which they are only given the one release
 * they share. The rigorous check is the neighbouring one: a fresh table and fresh releases per
 * trial, four comparisons of two one-sided 99.975% bounds each, so at most 4 × 2 × 0.00025 = 0.002
 * when the DP claim holds. Power: both checks fail on the Prize-style release.
 */
class NetflixAttackTest {

  /**
   * Four records over items 0–3: r0 = {0: 4★ day 100, 1: 3★ day 200}, r1 = {0: 5★ day 105, 2: 2★
   * day 300}, r2 = {0: 1★ day 100, 3: 4★ day 50}, r3 = {1: 3★ day 400}; plus {@code extra} records
   * each rating only item 4 or 5 (not in the aux).
   */
  private static SparseRatings handMade(int extra) {
    int[][] items = new int[4 + extra][];
    byte[][] stars = new byte[4 + extra][];
    int[][] days = new int[4 + extra][];
    items[0] = new int[] {0, 1};
    stars[0] = new byte[] {4, 3};
    days[0] = new int[] {100, 200};
    items[1] = new int[] {0, 2};
    stars[1] = new byte[] {5, 2};
    days[1] = new int[] {105, 300};
    items[2] = new int[] {0, 3};
    stars[2] = new byte[] {1, 4};
    days[2] = new int[] {100, 50};
    items[3] = new int[] {1};
    stars[3] = new byte[] {3};
    days[3] = new int[] {400};
    for (int e = 0; e < extra; e++) {
      items[4 + e] = new int[] {4 + e % 2};
      stars[4 + e] = new byte[] {3};
      days[4 + e] = new int[] {10};
    }
    return SparseRatings.of(6, items, stars, days);
  }

  /** The aux: item 0 at 4★ on day 102, item 1 at 3★ on day 205. */
  private static final ScoreboardRh.Known[] AUX = {
    new ScoreboardRh.Known(0, 4, 102), new ScoreboardRh.Known(1, 3, 205)
  };

  @Test
  void weight_isOneOverLogSupport_supportOneCountsAsTwo() {
    assertEquals(1 / Math.log(2), ScoreboardRh.weight(1), 0);
    assertEquals(1.4426950408889634, ScoreboardRh.weight(2), 1e-15);
    assertEquals(0.9102392266268373, ScoreboardRh.weight(3), 1e-15); // 1/ln 3
    assertEquals(0.2171472409516259, ScoreboardRh.weight(100), 1e-15); // 1/ln 100
  }

  @Test
  void decide_fourRecords_scoresByHand_eccentricityJustBelowPhi_abstains() {
    // Supports: item 0 rated by 3 records (wt 1/ln 3 = 0.910239), item 1 by 2 (wt 1/ln 2 =
    // 1.442695).
    // r0 matches both (stars 4 vs 4, day 102 vs 100; 3 vs 3, 205 vs 200): 2.352934. r1 matches item
    // 0
    // (5 vs 4 is within a star, 105 vs 102): 0.910239. r2's 1★ is 3 stars off; r3's day 400 is 195
    // days off. Scores (2.352934, 0.910239, 0, 0): mean 0.815793, σ = 0.962128, eccentricity
    // (2.352934 − 0.910239)/0.962128 = 1.499484 < φ = 1.5.
    ScoreboardRh.Decision d = new ScoreboardRh(handMade(0)).decide(AUX, 7, ScoreboardRh.PHI);
    assertEquals(2.352934267515801, d.best(), 1e-12);
    assertEquals(0.9102392266268373, d.second(), 1e-12);
    assertEquals(0.9621278246316303, d.sigma(), 1e-12);
    assertEquals(1.4994837525266749, d.eccentricity(), 1e-12);
    assertTrue(d.abstained());
  }

  @Test
  void decide_twoMoreUnrelatedRecords_sameScoresSmallerSigma_namesTheBest() {
    // Two more records score 0: σ over six scores is 0.874654, eccentricity 1.649446 ≥ 1.5.
    ScoreboardRh.Decision d = new ScoreboardRh(handMade(2)).decide(AUX, 7, ScoreboardRh.PHI);
    assertEquals(0.8746540498449622, d.sigma(), 1e-12);
    assertEquals(1.6494464767466521, d.eccentricity(), 1e-12);
    assertEquals(0, d.record());
  }

  @Test
  void decide_dateToleranceTooTight_dropsTheMatch() {
    // With ±4 days r0's item 1 (205 vs 200) no longer matches: r0 and r1 tie at 0.910239 on item 0
    // (day 102 vs 100 and 105), so the eccentricity is 0 and the attacker abstains.
    ScoreboardRh.Decision d = new ScoreboardRh(handMade(2)).decide(AUX, 4, ScoreboardRh.PHI);
    assertEquals(0.9102392266268373, d.best(), 1e-12);
    assertEquals(0, d.eccentricity(), 0);
    assertTrue(d.abstained());
  }

  @Test
  void similarity_overTheUnionOfItems() {
    SparseRatings t = handMade(0);
    // r0 = {0, 1} and r1 = {0, 2}: union {0, 1, 2}; item 0 similar (4 vs 5 stars, days 100 vs 105).
    assertEquals(1 / 3.0, ScoreboardRh.similarity(t, 0, t, 1, 14), 1e-15);
    // r0 and r2: item 0 is 3 stars apart; union {0, 1, 3}.
    assertEquals(0, ScoreboardRh.similarity(t, 0, t, 2, 14), 0);
    assertEquals(1, ScoreboardRh.similarity(t, 3, t, 3, 0), 0);
  }

  @Test
  void generate_heavyTailedPopularityAndActivity() {
    SparseRatings t = SparseRatings.generate(5000, 0, new SeededRandomSource(3));
    int[] support = t.supports();
    int[] sorted = Arrays.stream(support).sorted().toArray();
    long top = 0;
    for (int i = sorted.length - sorted.length / 100; i < sorted.length; i++) {
      top += sorted[i];
    }
    // Measured on this seed: the top 1% of items hold 18% of the ratings, the median item is rated
    // by
    // 47 of the 5,000 users and a tenth of the items by at most 22; activity runs from 10 (median
    // 16)
    // to the cap of 250.
    assertTrue(top > 0.10 * t.ratings(), "top 1% of items: " + top + " of " + t.ratings());
    assertTrue(
        sorted[sorted.length / 2] < 0.01 * t.users(),
        "median support " + sorted[sorted.length / 2]);
    assertTrue(
        sorted[sorted.length / 10] < 0.005 * t.users(),
        "10th percentile support " + sorted[sorted.length / 10]);
    int[] activity = new int[t.users()];
    for (int u = 0; u < t.users(); u++) {
      activity[u] = t.size(u);
    }
    Arrays.sort(activity);
    assertTrue(
        activity[0] >= 10
            && activity[activity.length / 2] < 25
            && activity[activity.length - 1] > 200,
        "activity min/median/max "
            + activity[0]
            + "/"
            + activity[activity.length / 2]
            + "/"
            + activity[activity.length - 1]);
  }

  @Test
  void run_defaultScale_reidentifiesAnonymizedAsThePaper_dpStaysWithinChance() {
    double epsilon = 1;
    NetflixAttack.Outcome o =
        NetflixAttack.run(10_000, 8, 2, 14, epsilon, new SeededRandomSource(1), s -> {});
    NetflixAttack.Row r = o.given();
    assertEquals(8, r.known());
    assertEquals(2, r.wrongRatings());
    // The paper: 99% with 8 ratings, 2 of them wrong, dates ±14 days. Issue 28 asks for ≥ 80%.
    assertTrue(r.anonymized().reidentified() >= 0.80, NetflixAttack.summary(o));
    assertTrue(withinChance(r.dp(), r.dpNonMembers(), epsilon), NetflixAttack.summary(o));
    // Power: the same check fails on the anonymized release.
    assertFalse(
        withinChance(r.anonymized(), r.anonymizedNonMembers(), epsilon), NetflixAttack.summary(o));
    assertEquals(epsilon, o.spent().epsilon(), 0);
    assertEquals(0, o.spent().delta(), 0);
    // More known ratings never hurt much: re-identification grows with K along the sweep.
    assertTrue(o.sweep().get(0).anonymized().reidentified() < r.anonymized().reidentified());
  }

  /**
   * The DP statement itself, on exact neighbours with independent trials: each trial draws a fresh
   * table of 200 people plus the target, releases it with and without the target, and runs the
   * attack (K = 8, W = 2, D = 14) on both. For any event E of the attack's outcome, ε-DP gives
   * P[E | with] ≤ e^ε·P[E | without] and the reverse. Events: "names a record" (measured: 61 and 54 of
   * 200 trials with and without the target) and "re-identifies the target" (0 and 0). The
   * Prize-style release fails the second (199 against 0: its power); the DP release passes both.
   */
  @Test
  void dpRelease_neighbouringTables_attackOutcomesWithinEpsilon_prizeReleaseIsNot() {
    double epsilon = 1;
    int trials = 200;
    SeededRandomSource random = new SeededRandomSource(28);
    int[][] dp = new int[2][2]; // [world: with, without][event: named, re-identified]
    int[][] prize = new int[2][2];
    for (int t = 0; t < trials; t++) {
      SparseRatings with = SparseRatings.generate(200, 1, random);
      SparseRatings without = with.slice(0, 200);
      int target = 200;
      ScoreboardRh.Known[] aux =
          NetflixAttack.aux(
              with, target, 8, 2, 14, NetflixAttack.cumulativeSupports(without), random);
      SparseRatings[] worlds = {with, without};
      for (int w = 0; w < 2; w++) {
        count(
            dp[w],
            DpRatingsRelease.synthesize(worlds[w], epsilon, random).synthetic(),
            with,
            target,
            aux);
        count(prize[w], NetflixAttack.prizeRelease(worlds[w], random), with, target, aux);
      }
    }
    String counts = "DP " + Arrays.deepToString(dp) + ", Prize-style " + Arrays.deepToString(prize);
    for (int e = 0; e < 2; e++) {
      assertTrue(withinEpsilon(dp[0][e], dp[1][e], trials, epsilon), counts);
      assertTrue(withinEpsilon(dp[1][e], dp[0][e], trials, epsilon), counts);
    }
    assertFalse(withinEpsilon(prize[0][1], prize[1][1], trials, epsilon), counts);
  }

  private static void count(
      int[] counts,
      SparseRatings release,
      SparseRatings truth,
      int target,
      ScoreboardRh.Known[] aux) {
    ScoreboardRh.Decision d = new ScoreboardRh(release).decide(aux, 14, ScoreboardRh.PHI);
    if (!d.abstained()) {
      counts[0]++;
      if (ScoreboardRh.similarity(truth, target, release, d.record(), NetflixAttack.SUCCESS_DAYS)
          >= NetflixAttack.THETA) {
        counts[1]++;
      }
    }
  }

  /**
   * Lower bound of a's rate ≤ e^ε × upper bound of b's rate (99.975% one-sided Clopper–Pearson
   * each).
   */
  private static boolean withinEpsilon(int a, int b, int trials, double epsilon) {
    return ClopperPearson.lowerBound(a, trials, 0.00025)
        <= Math.exp(epsilon) * ClopperPearson.upperBound(b, trials, 0.00025);
  }

  /**
   * Members' re-identification lower bound ≤ e^ε × non-members' upper bound (99.9% one-sided each).
   */
  private static boolean withinChance(
      NetflixAttack.Shares members, NetflixAttack.Shares nonMembers, double epsilon) {
    double lower = ClopperPearson.lowerBound(members.reidentifiedCount(), members.targets(), 0.001);
    double upper =
        ClopperPearson.upperBound(nonMembers.reidentifiedCount(), nonMembers.targets(), 0.001);
    return lower <= Math.exp(epsilon) * upper;
  }
}
