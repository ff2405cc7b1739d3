package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.accounting.Budget;
import org.privet.engine.compile.CompiledQuery;
import org.privet.engine.compile.Compiler;
import org.privet.engine.compile.ContributionBoundPass;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.testing.SeededRandomSource;

/**
 * The L∞ estimate of a lone SUM reads the (unit, group) pairs' values in row-equivalents
 * ({@link Measure.PairValues}) and the main pass clamps each pair's total to [L∞·min(lo, 0),
 * L∞·max(hi, 0)] over all its rows ({@code docs/proofs/contribution-bound-estimate.md}), on
 * DuckDB: the bound follows the values, not the rows; other queries keep the row counts; the
 * main pass's clamp is exact; the tree moves by L0 per level for a heavy victim; D and D' with a
 * heavy victim give the same EXPLAIN, charge and output shape.
 *
 * <p>Huge-ε runs (ε = 10^9) as in {@link ContributionBoundEstimateTest}: every noise moves no
 * count with probability above 1 − 10^-4, and the seeds are fixed.
 */
class PairValuesEstimateTest {
  private static DuckDbBackend db;

  @BeforeAll
  static void tables() {
    db = DuckDbBackend.inMemory();
    // 20 units with 8 rows of 1.0 each, in groups g0/g1: a pair's value is 8, under one row at
    // the bound 10; its rows are 8.
    List<List<?>> small = new ArrayList<>();
    for (long u = 0; u < 20; u++) {
      for (int k = 0; k < 8; k++) {
        small.add(Arrays.asList(u, "g" + (u % 2), 1.0));
      }
    }
    TestTables.register(db, "small", small);
    // Signed values: 10 units with 3 rows of −4 (sum −12: ⌈−12/−5⌉ = 3 row-equivalents at the
    // lower bound −5), 10 units with one row of 2.
    List<List<?>> signed = new ArrayList<>();
    for (long u = 0; u < 10; u++) {
      for (int k = 0; k < 3; k++) {
        signed.add(Arrays.asList(u, "g0", -4.0));
      }
      signed.add(Arrays.asList(100 + u, "g0", 2.0));
    }
    TestTables.register(db, "signed", signed);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Session session(DuckDbBackend backend, long seed, BudgetCharger charger) {
    return Session.builder().backend(backend).budgetCharger(charger)
        .randomSource(new SeededRandomSource(seed)).build();
  }

  @Test
  void run_loneSum_boundsRowEquivalentsNotRows() {
    Query sum = Query.from("small").privacyUnit("uid").estimateMaxRowsPerGroup()
        .maxGroupsContributed(1).groupBy("g").publicGroups("g0", "g1").sum("s", "x", 0, 10)
        .epsilon(1e9).build();
    Result r = session(db, 1, c -> { }).run(sum);
    // Each pair is worth ⌈8/10⌉ = 1 row-equivalent: L∞ = 1, and its total 8 ≤ 1·10 is kept whole.
    assertEquals(1, r.estimatedMaxRowsPerGroup());
    for (ResultRow row : r.rows()) {
      assertEquals(80, row.get("s").value(), 1e-3, "10 units × 8 in " + row.key());
    }
    // A COUNT beside it: its own tree of the row counts (8 rows per pair: L∞ = 8, released);
    // the SUM keeps its own tree (below: run_countBesideSums_eachSumClampedAtItsOwnBound).
    Query both = Query.from("small").privacyUnit("uid").estimateMaxRowsPerGroup()
        .maxGroupsContributed(1).groupBy("g").publicGroups("g0", "g1").count("n")
        .sum("s", "x", 0, 10).epsilon(1e9).build();
    Result b = session(db, 2, c -> { }).run(both);
    assertEquals(8, b.estimatedMaxRowsPerGroup());
    for (ResultRow row : b.rows()) {
      assertEquals(80, row.get("n").value(), 1e-3);
      assertEquals(80, row.get("s").value(), 1e-3);
    }
  }

  /**
   * A COUNT and two SUMs: three trees (the share split equally), L∞ = 8 from the row counts for
   * the COUNT and each SUM clamped per pair at its own bound: x (8 rows of 1.0, bound 10) is worth
   * 1 row-equivalent, y (8 rows of 20.0, bound 40) 4, over 100 units. At ε = 10 the trees' noise
   * (ε 2/3 each, scale 1.5, s.d. 2.1) moves no bound (the 100 pairs of each tree are in one cell,
   * 30 s.d. above the widest band, 31; an empty cell fires with probability 5%, so the bounds
   * asserted exactly hold for this fixed seed, with probability about 0.86 for a random one). What
   * shows it from outside: the released intervals. Each output gets a third of the main pass's
   * ε, so an interval's half-width is proportional to its sensitivity: the COUNT's L∞ = 8, x's
   * 1·10 = 10, y's 4·40 = 160 (a SUM bounded by L∞ rows instead: 80 and 320). The ratios 1.25 and
   * 20 are asserted within 10%.
   */
  @Test
  void run_countBesideSums_eachSumClampedAtItsOwnBound() {
    try (DuckDbBackend local = DuckDbBackend.inMemory()) {
      List<List<?>> rows = new ArrayList<>();
      for (long u = 0; u < 100; u++) {
        for (int k = 0; k < 8; k++) {
          rows.add(Arrays.asList(u, 1.0, 20.0));
        }
      }
      local.registerTable("two", List.of("uid", "x", "y"), List.of(
          org.privet.engine.spi.ColumnType.INTEGER, org.privet.engine.spi.ColumnType.FLOATING,
          org.privet.engine.spi.ColumnType.FLOATING), rows);
      Query q = Query.from("two").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
          .sum("sx", "x", 0, 10).sum("sy", "y", 0, 40).epsilon(10).build();
      assertEquals(List.of("sx", "sy"), q.sumsEstimableByValue());
      String plan = session(local, 8, c -> { }).explain(q).toString();
      assertTrue(plan.contains("3 noisy quantile trees"), plan);
      assertTrue(plan.contains(ContributionBoundPass.VALUES_OUTPUT + "x")
          && plan.contains(ContributionBoundPass.VALUES_OUTPUT + "y"), plan);
      Result r = session(local, 10, c -> { }).run(q);
      assertEquals(8, r.estimatedMaxRowsPerGroup());
      ResultRow row = r.rows().get(0);
      double n = row.get("n").upper() - row.get("n").lower();
      double sx = row.get("sx").upper() - row.get("sx").lower();
      double sy = row.get("sy").upper() - row.get("sy").lower();
      assertEquals(1.25, sx / n, 0.125, "x at 1 row-equivalent: " + row);
      assertEquals(20, sy / n, 2, "y at 4 row-equivalents: " + row);
      assertEquals(800, row.get("n").value(), 80, row.toString());
    }
  }

  /**
   * Two SUMs of one column with the same per-row bounds have the same pair values
   * ({@code docs/proofs/contribution-bound-estimate.md}, "Two SUMs of one column"): they share one
   * tree (two trees in all, with the row counts' for the COUNT, not three), and each is clamped per
   * pair at that tree's bound. 100 units with 8 rows of 1.0 (bound 10): 1 row-equivalent per pair,
   * L∞ = 8 for the COUNT. Each output gets a third of the main pass's ε, so the intervals' ratio
   * is the sensitivities' 10/8 = 1.25 for each SUM (asserted within 10%); with the row counts
   * instead (as before) it would be 8·10/8 = 10 (the intervals' widths are a function of the
   * sensitivities and ε only, not of the noise drawn). Noise: ε = 10, the trees' share 2 (ε 1
   * each, scale 1, s.d. 1.4): the 100 pairs of each tree lie in one cell, far above its band; an
   * empty cell above may fire with probability 5% (its one-sided band) and raise a bound, so the
   * bounds asserted exactly (L∞ = 8, the values within 10%) hold for this fixed seed, not for
   * every seed.
   */
  @Test
  void run_twoSumsOfOneColumnAndBounds_shareOneTree() {
    try (DuckDbBackend local = DuckDbBackend.inMemory()) {
      List<List<?>> rows = new ArrayList<>();
      for (long u = 0; u < 100; u++) {
        for (int k = 0; k < 8; k++) {
          rows.add(Arrays.asList(u, 1.0));
        }
      }
      local.registerTable("one", List.of("uid", "x"), List.of(
          org.privet.engine.spi.ColumnType.INTEGER, org.privet.engine.spi.ColumnType.FLOATING),
          rows);
      Query q = Query.from("one").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
          .sum("a", "x", 0, 10).sum("b", "x", 0, 10).epsilon(10).build();
      assertEquals(List.of("a", "b"), q.sumsEstimableByValue());
      String plan = session(local, 8, c -> { }).explain(q).toString();
      assertTrue(plan.contains("2 noisy quantile trees"), plan);
      String tree = ContributionBoundPass.VALUES_OUTPUT + "x quantile tree";
      assertEquals(plan.indexOf(tree), plan.lastIndexOf(tree), plan);
      assertTrue(plan.indexOf(tree) >= 0, plan);
      Result r = session(local, 10, c -> { }).run(q);
      assertEquals(8, r.estimatedMaxRowsPerGroup());
      ResultRow row = r.rows().get(0);
      double n = row.get("n").upper() - row.get("n").lower();
      for (String s : List.of("a", "b")) {
        double w = row.get(s).upper() - row.get(s).lower();
        assertEquals(1.25, w / n, 0.125, s + " at 1 row-equivalent: " + row);
        assertEquals(800, row.get(s).value(), 80, row.toString());
      }
    }
  }

  @Test
  void sumsEstimableByValue_sameColumnTwiceOrGroupBounds_fallBackToRows() {
    // one column, different bounds: different pair values, no shared tree
    Query twice = Query.from("small").privacyUnit("uid").estimateMaxRowsPerGroup()
        .sum("a", "x", 0, 10).sum("b", "x", 0, 5).epsilon(1).build();
    assertEquals(List.of(), twice.sumsEstimableByValue());
    String plan = session(db, 9, c -> { }).explain(twice).toString();
    assertTrue(plan.contains("pairs' row counts") && !plan.contains("row-equivalents"), plan);
    Query mixed = Query.from("small").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .sum("s", "x", 0, 10).epsilon(1).build();
    assertEquals(List.of("s"), mixed.sumsEstimableByValue());
    Query given = Query.from("small").privacyUnit("uid").maxRowsPerGroup(4).sum("s", "x", 0, 10)
        .epsilon(1).build();
    assertEquals(List.of(), given.sumsEstimableByValue());
  }

  @Test
  void run_negativeSums_countTheirRowEquivalentsAtTheLowerBound() {
    Query sum = Query.from("signed").privacyUnit("uid").estimateMaxRowsPerGroup()
        .sum("s", "x", -5, 2).epsilon(1e9).build();
    Result r = session(db, 3, c -> { }).run(sum);
    // −12 over −5: 3 row-equivalents, L∞ = 4; clamp [−20, 8] keeps −12 and 2 whole.
    assertEquals(4, r.estimatedMaxRowsPerGroup());
    assertEquals(10 * -12 + 10 * 2, r.rows().get(0).get("s").value(), 1e-3);
  }

  @Test
  void explain_statesWhichEstimateRuns() {
    Query sum = Query.from("small").privacyUnit("uid").estimateMaxRowsPerGroup()
        .sum("s", "x", 0, 10).epsilon(1).build();
    String text = session(db, 4, c -> { }).explain(sum).toString();
    assertTrue(text.contains("pairs' values of x in row-equivalents"), text);
    assertTrue(text.contains("over all its rows, not scaled to L∞"), text);
    Query count = Query.from("small").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .epsilon(1).build();
    String c = session(db, 4, x -> { }).explain(count).toString();
    assertTrue(c.contains("pairs' row counts"), c);
    assertFalse(c.contains("row-equivalents"), c);
  }

  @Test
  void run_boundsTooLargeForTheGroupClamp_fallBackToRowCountsNotRefused() {
    // L∞ stand-in 2^19 × 10^15 exceeds the group bounds' ±2^60: the row counts, as before.
    Query sum = Query.from("small").privacyUnit("uid").estimateMaxRowsPerGroup()
        .sum("s", "x", 0, 1e15).epsilon(1e9).build();
    assertTrue(session(db, 5, c -> { }).explain(sum).toString().contains("pairs' row counts"));
    Result r = session(db, 5, c -> { }).run(sum);
    assertEquals(8, r.estimatedMaxRowsPerGroup());
  }

  /**
   * The main pass at L∞ = 4: the SUM's spec carries the all-rows pair clamp [4·min(lo, 0),
   * 4·max(hi, 0)] on its grid with the sensitivity of 4 rows in [lo, hi], and DuckDB clamps a
   * heavy unit's total (100 rows of 1.0, bounds [0, 2]) to 8 while keeping light ones whole.
   */
  @Test
  void mainPass_clampsEachPairsTotalToLinfRowEquivalents() {
    try (DuckDbBackend local = DuckDbBackend.inMemory()) {
      List<List<?>> rows = new ArrayList<>();
      for (int k = 0; k < 100; k++) {
        rows.add(Arrays.asList(1L, "g0", 1.0));
      }
      for (long u = 2; u < 7; u++) {
        rows.add(Arrays.asList(u, "g0", 1.5));
      }
      local.registerTable("d", TestTables.COLS, TestTables.TYPES, rows);
      Query q = Query.from("d").privacyUnit("uid").estimateMaxRowsPerGroup().sum("s", "x", 0, 2)
          .epsilon(1).build();
      assertTrue(q.pairValuesEstimable());
      CompiledQuery c = Compiler.compile(q.withSumClampedPerPair(4), local.describe(q.source()),
          9L);
      Measure.FixedPointSum f = (Measure.FixedPointSum) c.spec().measures().get(0);
      long two = (long) Math.scalb(2.0, f.scaleExponent());
      assertEquals(new Measure.PairClamp(0, 4 * two, true), f.pairClamp());
      assertEquals(4, c.spec().lInf());
      assertEquals(4 * two, c.releases().get(0).sensitivity(), "4 rows of at most 2, on the grid");
      List<GroupAggregate> out = new ArrayList<>();
      local.aggregate(c.spec(), out::add);
      double total = Math.scalb((double) out.get(0).sums()[0], -f.scaleExponent());
      assertEquals(8 + 5 * 1.5, total, 1e-9, "100 clamped to 4·2 = 8; 1.5 each kept");
    }
  }

  /**
   * A victim with 2 000 rows of value 50 in each of 3 groups (L0 = 3) moves the exact pair-values
   * tree by exactly L0 per level (its pairs land in one cell each, far above the others), as the
   * tree's sensitivity states; and D, D' give the same EXPLAIN, the same charge and the same
   * output names and rows (public groups).
   */
  @Test
  void neighbours_heavyVictim_treeMovesL0PerLevelAndEverythingButNoiseIsTheSame() {
    List<List<?>> base = new ArrayList<>();
    for (long u = 0; u < 200; u++) {
      for (int g = 0; g < 3; g++) {
        for (int k = 0; k <= u % 5; k++) {
          base.add(Arrays.asList(u, "g" + ((u + g) % 7), (double) (k % 4)));
        }
      }
    }
    List<List<?>> withVictim = new ArrayList<>(base);
    for (int g = 0; g < 3; g++) {
      for (int k = 0; k < 2000; k++) {
        withVictim.add(Arrays.asList(9999L, "g" + g, 50.0));
      }
    }
    try (DuckDbBackend d = DuckDbBackend.inMemory(); DuckDbBackend d2 = DuckDbBackend.inMemory()) {
      d.registerTable("d", TestTables.COLS, TestTables.TYPES, base);
      d2.registerTable("d", TestTables.COLS, TestTables.TYPES, withVictim);
      Query q = Query.from("d").privacyUnit("uid").estimateMaxRowsPerGroup()
          .maxGroupsContributed(3).groupBy("g")
          .publicGroups("g0", "g1", "g2", "g3", "g4", "g5", "g6").sum("s", "x", 0, 10)
          .epsilon(1).build();
      long[] a = exactTree(d, q);
      long[] b = exactTree(d2, q);
      long l1 = 0;
      for (int i = 0; i < a.length; i++) {
        l1 += Math.abs(a[i] - b[i]);
      }
      int levels = QuantileTree.forCells(ContributionBoundEstimate.CELLS).levels();
      assertEquals(3L * levels, l1);
      assertEquals(3L * levels, pass(d, q).tree().releases().get(0).sensitivity());

      List<ChargeRequest> c1 = new ArrayList<>();
      List<ChargeRequest> c2 = new ArrayList<>();
      assertEquals(session(d, 7, c -> { }).explain(q).toString(),
          session(d2, 7, c -> { }).explain(q).toString());
      Result r1 = session(d, 7, c1::add).run(q);
      Result r2 = session(d2, 7, c2::add).run(q);
      assertEquals(1, c1.size());
      assertEquals(c1.get(0).total(), c2.get(0).total());
      assertEquals(c1.get(0).mechanisms(), c2.get(0).mechanisms());
      assertEquals(r1.outputs(), r2.outputs());
      assertEquals(r1.rows().stream().map(ResultRow::key).toList(),
          r2.rows().stream().map(ResultRow::key).toList());

      // A COUNT beside the SUM: two trees in one pass, each moved by exactly L0 per level.
      Query both = Query.from("d").privacyUnit("uid").estimateMaxRowsPerGroup()
          .maxGroupsContributed(3).groupBy("g")
          .publicGroups("g0", "g1", "g2", "g3", "g4", "g5", "g6").count("n")
          .sum("s", "x", 0, 10).epsilon(1).build();
      long[][] ta = exactTrees(d, both);
      long[][] tb = exactTrees(d2, both);
      assertEquals(2, ta.length);
      for (int t = 0; t < 2; t++) {
        long moved = 0;
        for (int i = 0; i < ta[t].length; i++) {
          moved += Math.abs(ta[t][i] - tb[t][i]);
        }
        assertEquals(3L * levels, moved, "tree " + t);
      }
      List<ChargeRequest> b1 = new ArrayList<>();
      List<ChargeRequest> b2 = new ArrayList<>();
      assertEquals(session(d, 7, c -> { }).explain(both).toString(),
          session(d2, 7, c -> { }).explain(both).toString());
      Result s1 = session(d, 7, b1::add).run(both);
      Result s2 = session(d2, 7, b2::add).run(both);
      assertEquals(b1.get(0).total(), b2.get(0).total());
      assertEquals(b1.get(0).mechanisms(), b2.get(0).mechanisms());
      assertEquals(s1.outputs(), s2.outputs());
      assertEquals(s1.rows().stream().map(ResultRow::key).toList(),
          s2.rows().stream().map(ResultRow::key).toList());
    }
  }

  /** The exact trees (row counts, then the SUM's values) of the two-tree estimate of {@code q}. */
  private static long[][] exactTrees(DuckDbBackend backend, Query q) {
    CompiledQuery main = Compiler.compile(q.withSumsClampedPerPair(
        ContributionBoundEstimate.STAND_IN, java.util.Map.of("s", ContributionBoundEstimate.STAND_IN)),
        backend.describe(q.source()), 7L);
    Measure.FixedPointSum f = main.spec().measures().stream()
        .filter(m -> m instanceof Measure.FixedPointSum s && s.pairClamp() != null)
        .map(m -> (Measure.FixedPointSum) m).findFirst().orElseThrow();
    ContributionBoundPass p = ContributionBoundPass.compile(main.spec(), Budget.pure(0.2),
        ContributionBoundEstimate.defaults(), backend.describe(q.source()), 7L,
        List.of(new Measure.PairValues(f.column(), f.lower(), f.upper(), f.scaleExponent(),
            ContributionBoundEstimate.CELLS)), true);
    assertEquals(2, p.trees());
    assertEquals(2, p.tree().releases().size());
    List<GroupAggregate> groups = new ArrayList<>();
    backend.aggregate(p.spec(), groups::add);
    GroupAggregate total = p.total(groups);
    QuantileTree t = QuantileTree.forCells(ContributionBoundEstimate.CELLS);
    long[][] out = new long[2][];
    for (int m = 0; m < 2; m++) {
      int tree = p.spec().measures().get(m) instanceof Measure.PairRows ? 0 : 1;
      out[tree] = t.counts(total.bins()[m]);
    }
    return out;
  }

  /** The estimate pass Session compiles for {@code q} (one SUM: pair values). */
  private static ContributionBoundPass pass(DuckDbBackend backend, Query q) {
    CompiledQuery main = Compiler.compile(q.withSumClampedPerPair(ContributionBoundEstimate.STAND_IN),
        backend.describe(q.source()), 7L);
    BoundedAggregation t = main.spec();
    Measure.FixedPointSum f = (Measure.FixedPointSum) t.measures().get(0);
    return ContributionBoundPass.compile(t, Budget.pure(0.2), ContributionBoundEstimate.defaults(),
        backend.describe(q.source()), 7L, new Measure.PairValues(f.column(), f.lower(), f.upper(),
            f.scaleExponent(), ContributionBoundEstimate.CELLS));
  }

  private static long[] exactTree(DuckDbBackend backend, Query q) {
    ContributionBoundPass p = pass(backend, q);
    assertTrue(p.readsValues());
    List<GroupAggregate> groups = new ArrayList<>();
    backend.aggregate(p.spec(), groups::add);
    return QuantileTree.forCells(ContributionBoundEstimate.CELLS).counts(p.total(groups).bins()[0]);
  }
}
