package org.privet.anonymity.attacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * Dinur–Nissim reconstruction: exact answers recover the secret, DP answers at ε = 1 do not beat
 * the ε-DP bound on guessing a uniform bit, e^ε/(1 + e^ε).
 *
 * <p>False-failure probability: the DP assertion fails only if the one-sided 99.9% Clopper–Pearson
 * lower bound on the success rate exceeds the bound while the true rate is within it: ≤ 0.001.
 * Power: the same assertion applied to the exact attack's successes fails (its lower bound is
 * above 0.95), which {@link #reconstruct_exactAnswers_beatTheDpBound} checks.
 */
class ReconstructionAttackTest {
  private static final int N = 32;
  private static final int QUERIES = 128; // a power of two: ε/m composes back to exactly ε

  private static boolean[] uniformBits(SeededRandomSource random) {
    boolean[] s = new boolean[N];
    for (int i = 0; i < N; i++) {
      s[i] = random.nextBoolean();
    }
    return s;
  }

  @Test
  void reconstruct_exactAnswers_beatTheDpBound() {
    SeededRandomSource random = new SeededRandomSource(13);
    int trials = 100;
    int successes = 0;
    for (int t = 0; t < trials; t++) {
      boolean[] secret = uniformBits(random);
      boolean[] guess = ReconstructionAttack.reconstruct(secret, QUERIES, Double.NaN, random);
      successes += guess[0] == secret[0] ? 1 : 0;
      assertEquals(1.0, ReconstructionAttack.agreement(secret, guess), "exact answers recover every bit");
    }
    assertTrue(ClopperPearson.lowerBound(successes, trials, 0.001) > ReconstructionAttack.bound(1.0));
  }

  @Test
  void reconstruct_dpAnswersAtEpsilonOne_stayWithinTheBound() {
    SeededRandomSource random = new SeededRandomSource(14);
    int trials = 400;
    int successes = 0;
    for (int t = 0; t < trials; t++) {
      boolean[] secret = uniformBits(random);
      boolean[] guess = ReconstructionAttack.reconstruct(secret, QUERIES, 1.0, random);
      successes += guess[0] == secret[0] ? 1 : 0; // one bit per trial: independent trials
    }
    double lower = ClopperPearson.lowerBound(successes, trials, 0.001);
    assertTrue(lower <= ReconstructionAttack.bound(1.0), "success lower bound " + lower);
  }

  @Test
  void reconstruct_fewerQueriesThanRows_recoversOnlyPart() {
    SeededRandomSource random = new SeededRandomSource(15);
    boolean[] secret = uniformBits(random);
    double part = ReconstructionAttack.agreement(secret, ReconstructionAttack.reconstruct(secret, N / 4, Double.NaN, random));
    assertTrue(part < 1.0, "8 equations cannot determine 32 unknowns: " + part);
  }
}
