package org.privet.anonymity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ℓ-diversity, t-closeness and information loss against small cases computed by hand. */
class AnonymityCheckTest {

  /** Li, Li &amp; Venkatasubramanian 2007, Table 3/4: salaries 3k..11k, the example's classes. */
  @Test
  void check_liEtAlSalaryExample_orderedEmdMatchesThePaper() {
    // Class {3k, 4k, 5k} against the whole table {3k..11k}: the paper computes 0.375.
    double[] p = {1 / 3.0, 1 / 3.0, 1 / 3.0, 0, 0, 0, 0, 0, 0};
    double[] q = new double[9];
    java.util.Arrays.fill(q, 1 / 9.0);
    assertEquals(0.375, AnonymityCheck.orderedEmd(p, q), 1e-12);
    // Class {6k, 8k, 11k}: 0.167 in the paper (= 1/6).
    double[] p2 = {0, 0, 0, 1 / 3.0, 0, 1 / 3.0, 0, 0, 1 / 3.0};
    assertEquals(1 / 6.0, AnonymityCheck.orderedEmd(p2, q), 1e-12);
  }

  @Test
  void check_smallTable_reportsKLAndTAsComputedByHand() {
    // Two classes on zip: A = {flu, flu, cancer}, B = {flu, hiv, hiv, cancer}.
    Microdata d = Microdata.of(List.of(
        Microdata.Column.categorical("zip", new String[] {"A", "A", "A", "B", "B", "B", "B"}),
        Microdata.Column.categorical("disease",
            new String[] {"flu", "flu", "cancer", "flu", "hiv", "hiv", "cancer"})));
    AnonymityReport r = AnonymityCheck.check(GeneralizedTable.fromMicrodata(d, List.of("zip"), "disease"), d);
    assertEquals(3, r.k());
    assertEquals(2, r.classes());
    assertEquals(java.util.Map.of(3, 1, 4, 1), r.classSizes());
    assertEquals(2, r.distinctL().getAsInt()); // class A has two distinct values
    // Table: cancer 2/7, flu 3/7, hiv 2/7. A: 1/3, 2/3, 0 → ½(|1/3−2/7| + |2/3−3/7| + 2/7) = 2/7.
    // B: 1/4, 1/4, 1/2 → ½(1/28 + 5/28 + 6/28) = 3/14. Worst: 2/7.
    assertEquals(2 / 7.0, r.t().getAsDouble(), 1e-12);
    assertEquals("equal", r.tDistance());
    assertEquals(3 * 3 + 4 * 4, r.discernibility(), 0);
    assertEquals(0, r.gil(), 0);
    assertEquals(0, r.marginalError().getAsDouble(), 1e-12, "an unchanged table has no marginal error");
  }

  @Test
  void check_generalizedCells_gilAndMarginalErrorByHand() {
    Microdata original = Microdata.of(List.of(
        Microdata.Column.numeric("age", new double[] {20, 30, 40, 60}),
        Microdata.Column.categorical("sex", new String[] {"F", "M", "F", "M"})));
    // Released: ages [20..40] for the first three, 60 unchanged; sex fully redacted.
    Microdata released = Microdata.of(List.of(
        Microdata.Column.categorical("age", new String[] {"[20..40]", "[20..40]", "[20..40]", "60"}),
        Microdata.Column.categorical("sex", new String[] {"*", "*", "*", "*"})));
    AnonymityReport r = AnonymityCheck.check(
        GeneralizedTable.fromMicrodata(released, List.of("age", "sex"), null), original);
    // GIL: age cells 20/40 three times, 0 once; sex cells 1 each: (3·0.5 + 0 + 4) / 8.
    assertEquals((1.5 + 4) / 8, r.gil(), 1e-12);
    assertEquals(1, r.k());
    // Age marginal exact (each [20..40] row spreads over 20,30,40: 1/4 each): error 0.
    // Sex marginal: ½·(|½−½| + |½−½|) = 0. Age×sex: truth (20,F),(30,M),(40,F),(60,M) ¼ each;
    // estimate: ages 20/30/40 × F/M at ⅛ each, (60,F) ⅛, (60,M) ⅛ → TV = ½·(3·⅛ + 3·⅛ + ⅛ + ⅛) = ½.
    assertEquals(3, r.marginals());
    assertEquals(0.5, r.worstMarginalError().getAsDouble(), 1e-12);
    assertEquals(0.5 / 3, r.marginalError().getAsDouble(), 1e-12);
  }

  @Test
  void check_numericSensitive_usesOrderedDistance() {
    Microdata d = Microdata.of(List.of(
        Microdata.Column.categorical("zip", new String[] {"A", "A", "B", "B"}),
        Microdata.Column.numeric("salary", new double[] {1, 2, 3, 4})));
    AnonymityReport r = AnonymityCheck.check(GeneralizedTable.fromMicrodata(d, List.of("zip"), "salary"), null);
    // A = {1, 2}: p − q = (¼, ¼, −¼, −¼), prefix sums ¼, ½, ¼ → (1/3)·1 = 1/3.
    assertEquals(1 / 3.0, r.t().getAsDouble(), 1e-12);
    assertEquals("ordered", r.tDistance());
  }
}
