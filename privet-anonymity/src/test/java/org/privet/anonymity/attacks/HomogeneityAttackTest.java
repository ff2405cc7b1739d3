package org.privet.anonymity.attacks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.anonymity.GeneralizedTable;
import org.privet.anonymity.Microdata;

/** Homogeneity and background knowledge against a small table computed by hand. */
class HomogeneityAttackTest {
  private static final List<String> DISEASES = List.of("cancer", "flu", "hiv");

  private static GeneralizedTable table() {
    // Class A: flu ×3 (homogeneous). Class B: flu ×9, hiv ×1. Class C: flu, hiv, cancer ×2.
    String[] zip = {"A", "A", "A", "B", "B", "B", "B", "B", "B", "B", "B", "B", "B", "C", "C", "C", "C"};
    String[] d = {"flu", "flu", "flu", "flu", "flu", "flu", "flu", "flu", "flu", "flu", "flu", "flu", "hiv",
        "flu", "hiv", "cancer", "cancer"};
    Microdata m = Microdata.of(List.of(Microdata.Column.categorical("zip", zip), Microdata.Column.categorical("d", d)));
    return GeneralizedTable.fromMicrodata(m, List.of("zip"), "d");
  }

  /** Class A with the target (row 0) holding {@code value}; the other two of A have flu. */
  private static GeneralizedTable neighbour(String value) {
    Microdata m = Microdata.of(List.of(Microdata.Column.categorical("zip", new String[] {"A", "A", "A", "B", "B"}),
        Microdata.Column.categorical("d", new String[] {value, "flu", "flu", "hiv", "flu"})));
    return GeneralizedTable.fromMicrodata(m, List.of("zip"), "d");
  }

  /**
   * On the exact class the attacker learns the target's value with certainty; from a DP histogram
   * of the classes (ε = 0.5) the guess obeys P[guess flu | flu] ≤ e^{2ε}·P[guess flu | hiv] (the
   * tables differ by replacing the target's value). Asserted with 99.9% Clopper–Pearson bounds:
   * false-failure probability ≤ 0.002. Power: the exact class's guess fails the same check.
   */
  @Test
  void noisyHistogramGuess_obeysTheDpBound_exactClassDoesNot() {
    double epsilon = 0.5;
    int trials = 400;
    org.privet.testing.SeededRandomSource random = new org.privet.testing.SeededRandomSource(71);
    GeneralizedTable flu = neighbour("flu");
    GeneralizedTable hiv = neighbour("hiv");
    assertEquals(3 / 5.0, HomogeneityAttack.run("flu", flu, 0).certain(), 1e-12, "class A is homogeneous");
    int tp = 0;
    int fp = 0;
    for (int t = 0; t < trials; t++) {
      tp += "flu".equals(HomogeneityAttack.noisyHistogramGuess(flu, 0, DISEASES, epsilon, random)) ? 1 : 0;
      fp += "flu".equals(HomogeneityAttack.noisyHistogramGuess(hiv, 0, DISEASES, epsilon, random)) ? 1 : 0;
    }
    double factor = Math.exp(2 * epsilon);
    org.junit.jupiter.api.Assertions.assertTrue(org.privet.testing.ClopperPearson.lowerBound(tp, trials, 0.001)
        <= factor * org.privet.testing.ClopperPearson.upperBound(fp, trials, 0.001), "DP: " + tp + " vs " + fp);
    // Exact: the target's class is {flu, flu, flu} or {hiv, flu, flu}; the homogeneity attacker
    // claims flu exactly when the class is all flu (the same every trial: the release is exact).
    int exactTp = allFlu(flu) ? trials : 0;
    int exactFp = allFlu(hiv) ? trials : 0;
    org.junit.jupiter.api.Assertions.assertTrue(org.privet.testing.ClopperPearson.lowerBound(exactTp, trials, 0.001)
        > factor * org.privet.testing.ClopperPearson.upperBound(exactFp, trials, 0.001), "power");
  }

  private static boolean allFlu(GeneralizedTable t) {
    String[] d = t.sensitive().orElseThrow().labels();
    return java.util.Arrays.stream(t.classes().get(t.classOfRow()[0])).allMatch(r -> d[t.sourceRows()[r]].equals("flu"));
  }

  @Test
  void run_noBackgroundKnowledge_learnsHomogeneousClassesAndSkewedOnes() {
    HomogeneityAttack.Outcome o = HomogeneityAttack.run("t", table(), 0);
    // Certain: the 3 people of A. At least 0.9: A's 3 and B's 9 flu patients (9/10).
    assertEquals(3 / 17.0, o.certain(), 1e-12);
    assertEquals(12 / 17.0, o.atLeast90(), 1e-12);
  }

  @Test
  void run_rulingOutOneValue_learnsMore() {
    HomogeneityAttack.Outcome o = HomogeneityAttack.run("t", table(), 1);
    // A: 3 certain. B: flu patients rule out hiv → certain (9); the hiv patient rules out flu → certain.
    // C: flu rules out cancer (2) → {flu, hiv}: ½; hiv likewise ½; each cancer patient rules out one
    // of flu/hiv → {cancer, cancer, other}: ⅔. Certain: 13; ≥ 0.9: the same 13.
    assertEquals(13 / 17.0, o.certain(), 1e-12);
    assertEquals(13 / 17.0, o.atLeast90(), 1e-12);
  }
}
