package org.privet.engine.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.engine.BudgetCharger;
import org.privet.engine.ChargeRequest;
import org.privet.engine.Filter;
import org.privet.engine.MechanismCost;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.ResultRow;
import org.privet.engine.Session;
import org.privet.engine.Thresholding;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.release.Release;
import org.privet.engine.spi.ColumnType;
import org.privet.testing.SeededRandomSource;

/**
 * Shared measurements (issue 17, item 4): COUNT(*), the count of an AVG and of a VARIANCE of one
 * column are one noisy count when they are equal on every dataset; SUM, AVG and VARIANCE of one
 * column share one noisy sum; the receipt lists each measurement once and the charge is the
 * composition of the distinct measurements. The checks are exact identities (no false failures).
 */
class SharedMeasurementsTest {
  private static final int GROUPS = 200;
  private static DuckDbBackend db;

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 20 * GROUPS; u++) {
      // INTEGER column v with some NULLs: COUNT(*) and COUNT(v) differ without a filter.
      rows.add(Arrays.asList(u, "k" + (u % GROUPS), u % 7 == 0 ? null : u % 11));
    }
    db.registerTable("t", List.of("uid", "g", "v"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.INTEGER), rows);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Query.Builder base() {
    List<Object> keys = new ArrayList<>();
    for (int g = 0; g < GROUPS; g++) {
      keys.add("k" + g);
    }
    return Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(1)
        .groupBy("g").publicGroups(keys.toArray());
  }

  private static Query.Builder allFour(Query.Builder b) {
    // Symmetric bounds: reading SUM's uncentred sum is never worse than a centred one there.
    return b.count("n").sum("s", "v", -10, 10).mean("a", "v", -10, 10)
        .variance("var", "v", -10, 10);
  }

  private static final Filter NOT_NULL = new Filter.Not(new Filter.IsNull("v"));

  private static CompiledQuery compile(Query q) {
    return Compiler.compile(q, db.describe(q.source()), 1L);
  }

  @Test
  void compile_countSumMeanVarianceOfOneColumn_threeDistinctMeasurements() {
    CompiledQuery c = compile(allFour(base()).where(NOT_NULL).epsilon(1).build());
    // One count (n, a, var), one sum (s, a, var), the sum of squares (var).
    assertEquals(3, c.releases().size());
    assertEquals(List.of("n, a, var", "s, a, var", "var"),
        c.costs().stream().map(MechanismCost::output).toList());
    assertChargeIsCompositionOfDistinct(c);
  }

  @Test
  void compile_withoutNotNullFilter_countStarIsNotShared() {
    CompiledQuery c = compile(allFour(base()).epsilon(1).build());
    // COUNT(*) alone; COUNT(v) for a and var; the sum; the squares.
    assertEquals(4, c.releases().size());
    assertEquals(List.of("n", "s, a, var", "a, var", "var"),
        c.costs().stream().map(MechanismCost::output).toList());
    assertChargeIsCompositionOfDistinct(c);
  }

  @Test
  void compile_oneSidedBounds_avgAndVarianceKeepTheirCentredSum() {
    // Over [0, 10] an AVG reading SUM's uncentred sum (sensitivity 10) can be worse than with its
    // own centred one (5) (issue 22): they share the AVG's centred sum instead.
    CompiledQuery c = compile(base().count("n").sum("s", "v", 0, 10).mean("a", "v", 0, 10)
        .variance("var", "v", 0, 10).where(NOT_NULL).epsilon(1).build());
    assertEquals(List.of("n, a, var", "s", "a, var", "var"),
        c.costs().stream().map(MechanismCost::output).toList());
    assertTrue(c.releases().get(2).target().center() != 0, "the AVG's sum is centred");
    assertChargeIsCompositionOfDistinct(c);
  }

  @Test
  void uncentredSumNeverWorse_onlyForRangesAroundZero() {
    assertTrue(Rewrite.uncentredSumNeverWorse(-10, 10));
    assertTrue(Rewrite.uncentredSumNeverWorse(-10, 12));
    assertTrue(!Rewrite.uncentredSumNeverWorse(0, 10));
    assertTrue(!Rewrite.uncentredSumNeverWorse(50, 100));
  }

  @Test
  void compile_differentBounds_shareNothingButTheCount() {
    CompiledQuery c = compile(base().sum("s", "v", 0, 10).mean("a", "v", 0, 20)
        .epsilon(1).build());
    assertEquals(3, c.releases().size()); // s's sum, a's centred sum, a's count
    assertChargeIsCompositionOfDistinct(c);
  }

  @Test
  void compile_postAggregationReuse_countStarIsTheSelectionsCountAndAvgKeepsItsOwn() {
    // Private selection reusing COUNT(*) at L∞ = 1 (partsel) with sharing (planner): COUNT(*) has
    // no release; AVG's non-NULL count is not the selection's noisy unit count, so it keeps its
    // own even though the filter makes it equal to the row count.
    Query q = Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(1)
        .groupBy("g").count("n").sum("s", "v", -10, 10).mean("a", "v", -10, 10).where(NOT_NULL)
        .epsilonDelta(6, 1e-5).thresholding(Thresholding.POST_AGGREGATION).build();
    CompiledQuery c = compile(q);
    assertTrue(c.selection().kind().noisyCount());
    assertEquals(2, c.releases().size(), "the shared sum and AVG's count");
    assertEquals(List.of("<groups>", "s, a", "a"),
        c.costs().stream().map(MechanismCost::output).toList());
    List<PrivacyLoss> parts = new ArrayList<>();
    parts.add(c.selection().privacyLoss());
    c.releases().forEach(r -> parts.add(r.loss()));
    PrivacyLoss composed = CompiledQuery.composedCost(q.budget(), parts);
    assertTrue(CompiledQuery.sameCost(composed, c.total()), composed + " vs " + c.total());
    assertTrue(q.budget().admits(c.total()));

    Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(18)).build();
    Result r = s.run(q);
    assertTrue(r.rows().size() > GROUPS / 2, "most groups (~17 units each) pass: " + r.rows().size());
    int differs = 0;
    for (ResultRow row : r.rows()) {
      double n = row.get("n").value();
      assertEquals(Math.rint(n), n, 0.0, "a noisy unit count");
      double ratio = Math.max(-10, Math.min(10, row.get("s").value() / n));
      differs += Math.abs(row.get("a").value() - ratio) > 1e-9 ? 1 : 0;
    }
    // With AVG's count replaced by the selection's, every row would have a = s/n exactly.
    assertTrue(differs > 0, "AVG's denominator is its own measurement");
  }

  /** Each distinct release charged once, and the total is their composition (ε: Σε = budget). */
  private static void assertChargeIsCompositionOfDistinct(CompiledQuery c) {
    assertEquals(c.releases().size(), c.costs().size(), "each measurement listed once");
    List<PrivacyLoss> distinct = c.releases().stream().map(Release::loss).toList();
    PrivacyLoss composed = CompiledQuery.composedCost(c.query().budget(), distinct);
    assertTrue(CompiledQuery.sameCost(composed, c.total()), composed + " vs " + c.total());
    assertTrue(c.query().budget().admits(c.total()));
    assertEquals(1.0, ((PureDp) c.total()).epsilon(), 1e-9, "the whole budget is spent");
  }

  @Test
  void run_sharedMeasurements_outputsConsistentAndReceiptListsEachOnce() {
    List<ChargeRequest> charges = new ArrayList<>();
    Session s = Session.builder().backend(db).budgetCharger(charges::add)
        .randomSource(new SeededRandomSource(17)).build();
    Result r = s.run(allFour(base()).where(NOT_NULL).epsilon(1).build());
    assertEquals(3, charges.get(0).mechanisms().size());
    int checked = 0;
    for (ResultRow row : r.rows()) {
      double n = row.get("n").value();
      double sum = row.get("s").value();
      double avg = row.get("a").value();
      if (n > 0) {
        // AVG = SUM / COUNT as released, clamped to the value range (post-processing).
        assertEquals(Math.max(-10, Math.min(10, sum / n)), avg,
            1e-9 * Math.max(1, Math.abs(avg)));
        checked++;
      }
      assertTrue(row.get("var").value() >= 0 && row.get("var").value() <= 100);
    }
    assertTrue(checked > GROUPS / 2, "most groups have a positive noisy count: " + checked);
  }
}
