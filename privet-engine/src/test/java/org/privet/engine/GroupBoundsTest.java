package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.privet.engine.Aggregation.GroupBounds;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.duckdb.PairClampFixture;
import org.privet.testing.SeededRandomSource;

/** Per-unit-per-group clamping through the public API: sensitivities, receipts, exact sums. */
class GroupBoundsTest {
  private DuckDbBackend db;

  @BeforeEach
  void open() {
    db = DuckDbBackend.inMemory();
    // The crafted table of PairClampFixture: g0 unit totals 50, 6, 70, 2, (NULL), 10 (row
    // clamp [0, 10]); g1 unit 1 total 27.
    TestTables.register(db, "t", PairClampFixture.rows());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private Session session(long seed) {
    return Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(seed)).build();
  }

  private static Query.Builder base() {
    return Query.from("t").privacyUnit("uid").maxGroupsContributed(2).maxRowsPerGroup(5)
        .groupBy("g").publicGroups("g0", "g1");
  }

  private double sensitivity(Query q, int mechanism) {
    return session(1).explain(q).mechanisms().get(mechanism).sensitivity();
  }

  @Test
  void explain_sumWithGroupBounds_usesTheTighterOfRowAndGroupBound() {
    // Row bound: L0 · L∞ · 10 = 100; group bound 25: L0 · 25 = 50.
    assertEquals(100, sensitivity(base().sum("s", "x", 0, 10).epsilon(1).build(), 0));
    assertEquals(50, sensitivity(base().sum("s", "x", 0, 10, GroupBounds.of(0, 25))
        .epsilon(1).build(), 0));
    // A loose group bound does not help: the row bound stays.
    assertEquals(100, sensitivity(base().sum("s", "x", 0, 10, GroupBounds.of(0, 1000))
        .epsilon(1).build(), 0));
    // Both signs: max(|−30|, |25|) = 30 per group, but capped sums lie in [0, 50] → [0, 25].
    assertEquals(50, sensitivity(base().sum("s", "x", 0, 10, GroupBounds.of(-30, 25))
        .epsilon(1).build(), 0));
  }

  @Test
  void explain_allRowsGroupBounds_useOnlyTheGroupBound() {
    assertEquals(50, sensitivity(base().sum("s", "x", 0, 10, GroupBounds.ofAllRows(0, 25))
        .epsilon(1).build(), 0));
    assertEquals(60, sensitivity(base().sum("s", "x", 0, 10, GroupBounds.ofAllRows(-30, 25))
        .epsilon(1).build(), 0));
    // Wider than L∞ × the row bound: with all rows that is still the bound.
    assertEquals(2000, sensitivity(base().sum("s", "x", 0, 10, GroupBounds.ofAllRows(0, 1000))
        .epsilon(1).build(), 0), 1e-6);
  }

  @Test
  void explain_gaussianGroupBound_isL2OverL0Groups() {
    double l2 = sensitivity(base().sum("s", "x", 0, 10, GroupBounds.of(0, 25)).rho(1).build(), 0);
    assertEquals(Math.sqrt(2) * 25, l2, 1e-6);
  }

  @Test
  void explain_meanWithTightGroupBound_releasesAnUncentredSum() {
    // Centred at 5, a pair of k ≤ 5 values clamped to [0, 12] can move the sum by up to 25
    // (k = 5, sum 12 − 25); uncentred by at most 12, so the uncentred sum is used: L1 = 2 · 12.
    Plan p = session(1).explain(base().mean("m", "x", 0, 10, GroupBounds.of(0, 12))
        .epsilon(1).build());
    assertEquals(24, p.mechanisms().get(0).sensitivity());
    assertFalse(p.mechanisms().get(0).cost().purpose().contains("centred"));
    // Without group bounds the centred sum is better: 2 · 5 · 5.
    Plan plain = session(1).explain(base().mean("m", "x", 0, 10).epsilon(1).build());
    assertEquals(50, plain.mechanisms().get(0).sensitivity());
    assertTrue(plain.mechanisms().get(0).cost().purpose().contains("centred"));
  }

  @Test
  void explain_groupBounds_areShownInTheBounds() {
    Plan p = session(1).explain(base().sum("s", "x", 0, 10, GroupBounds.of(0, 25))
        .epsilon(1).build());
    assertTrue(p.bounds().stream().anyMatch(b -> b.contains("each unit's total in a group")
        && b.contains("[0.0, 25.0]")), p.bounds().toString());
  }

  @Test
  void run_groupBounds_giveTheHandComputedSumsAndMean() {
    // ε = 10^6: noise of scale ≤ 2·30/(ε/2) = 1.2e-4, so values are exact to 0.01.
    Query q = base().sum("s", "x", 0, 10, GroupBounds.of(5, 30))
        .sum("all", "x", 0, 10, GroupBounds.ofAllRows(5, 60))
        .mean("m", "x", 0, 10, GroupBounds.of(5, 30)).epsilon(1e6).build();
    Result r = session(3).run(q);
    ResultRow g0 = r.rows().get(0);
    ResultRow g1 = r.rows().get(1);
    // Unit totals in g0 after L∞ = 5: 50, 6, 50, 2, none, 10 → [5, 30]: 30, 6, 30, 5, 0, 10.
    assertEquals(81, g0.get("s").value(), 0.01);
    assertEquals(27, g1.get("s").value(), 0.01);
    // Whole totals 50, 6, 70, 2, none, 10 → [5, 60]: 50, 6, 60, 5, 0, 10.
    assertEquals(131, g0.get("all").value(), 0.01);
    // Mean: 81 over 5 + 2 + 5 + 1 + 0 + 2 = 15 bounded values.
    assertEquals(81.0 / 15, g0.get("m").value(), 0.01);
    assertEquals(9, g1.get("m").value(), 0.01);
  }

  @Test
  void run_degenerateGroupBounds_releaseTheConstantTotals() {
    // Every unit's total is clamped to exactly 2: g0 has 5 units with values (unit 5 has none).
    Query q = base().sum("s", "x", 0, 10, GroupBounds.of(2, 2))
        .mean("m", "x", 0, 10, GroupBounds.of(2, 2)).maxRowsPerGroup(1).epsilon(1e6).build();
    ResultRow g0 = session(4).run(q).rows().get(0);
    assertEquals(10, g0.get("s").value(), 0.01);
    assertEquals(2, g0.get("m").value(), 0.01);
  }

  @Test
  void groupBounds_badValues_areRejectedNamingThem() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GroupBounds.of(2, 1));
    assertTrue(e.getMessage().contains("perGroup"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> GroupBounds.of(Double.NaN, 1));
    assertTrue(e.getMessage().contains("perGroup lower"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> GroupBounds.of(0, Double.POSITIVE_INFINITY));
    assertTrue(e.getMessage().contains("perGroup upper"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> base().mean("m", "x", 0, 10, GroupBounds.ofAllRows(0, 1)));
    assertTrue(e.getMessage().contains("perGroup"), e.getMessage());
  }
}
