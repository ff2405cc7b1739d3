package org.privet.anonymity.attacks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.anonymity.GeneralizedTable;
import org.privet.anonymity.Microdata;

/** Homogeneity and background knowledge against a small table computed by hand. */
class HomogeneityAttackTest {

  private static GeneralizedTable table() {
    // Class A: flu ×3 (homogeneous). Class B: flu ×9, hiv ×1. Class C: flu, hiv, cancer ×2.
    String[] zip = {"A", "A", "A", "B", "B", "B", "B", "B", "B", "B", "B", "B", "B", "C", "C", "C", "C"};
    String[] d = {"flu", "flu", "flu", "flu", "flu", "flu", "flu", "flu", "flu", "flu", "flu", "flu", "hiv",
        "flu", "hiv", "cancer", "cancer"};
    Microdata m = Microdata.of(List.of(Microdata.Column.categorical("zip", zip), Microdata.Column.categorical("d", d)));
    return GeneralizedTable.fromMicrodata(m, List.of("zip"), "d");
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
