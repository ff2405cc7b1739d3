package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.plan.Relation;
import org.privet.testing.SeededRandomSource;

/**
 * The Java API over a private self-join ({@link Relation.UnitCap} below a {@link
 * Relation.JoinRole#UNIT} join) keeps its truncation within the smallest cap, as DP SQL does
 * ({@code docs/proofs/r2t-truncation.md}, "Self-joins"): bounds above the cap are refused at
 * build time naming the builder parameter, and the L∞ estimate's read is limited to the largest
 * 2^e with L0·2^e ≤ the cap ({@code docs/proofs/contribution-bound-estimate.md}, "A limited
 * read").
 *
 * <p>The run at ε = 10^9 is exact with probability above 1 − 10^-4, as in {@link
 * ContributionBoundEstimateTest}: the tree's and the count's noise scales are below 10^-6 rows.
 */
class QueryUnitCapTest {
  private static DuckDbBackend db;

  @BeforeAll
  static void tables() {
    db = DuckDbBackend.inMemory();
    // 300 units with one row each, and one heavy unit with 64 rows (64² = 4096 joined rows).
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 300; u++) {
      rows.add(Arrays.asList(u, "a", 1.0));
    }
    for (int k = 0; k < 64; k++) {
      rows.add(Arrays.asList(1000L, "a", 1.0));
    }
    TestTables.register(db, "heavy", rows);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  /** heavy ⋈ heavy on uid, each copy capped at {@code m} rows per unit, projected to (uid, g). */
  private static Source selfJoin(long m) {
    Relation a = new Relation.UnitCap(scan("a"), "a.uid", m, 7);
    Relation b = new Relation.UnitCap(scan("b"), "b.uid", m, 7);
    Relation j = new Relation.Join(Relation.JoinKind.INNER, a, b,
        List.of(new Relation.Join.Key("a.uid", "b.uid")), Relation.JoinRole.UNIT);
    return new Source.Relational(new Relation.Project(j, List.of(
        new Relation.Project.Output("uid", "a.uid"), new Relation.Project.Output("g", "a.g"),
        new Relation.Project.Output("x", "b.x"))), "a.uid");
  }

  private static Relation.Scan scan(String alias) {
    Source s = Source.table("heavy");
    return new Relation.Scan(alias, s, db.describe(s), false);
  }

  private static Result run(Query q) {
    return Session.builder().backend(db).budgetCharger(c -> { })
        .randomSource(new SeededRandomSource(4)).build().run(q);
  }

  /**
   * The heavy unit has 16² = 256 joined rows under caps of 16: the default estimate (read up to
   * 2^19) would release 256 at huge ε; limited to the cap it reads 16 (300 + 16 rows counted).
   * Under caps of 4,096 the same estimate reads the heavy unit's 4,096 joined rows: the limit, not
   * the data, held the first read down.
   */
  @Test
  void run_heavyUnitUnderTheDefaultEstimate_readsAtMostTheSmallestCap() {
    Query q = Query.from(selfJoin(16)).privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .epsilon(1e9).build();
    Result r = run(q);
    assertEquals(16, r.estimatedMaxRowsPerGroup());
    assertEquals(316, r.rows().get(0).get("n").value(), 1e-6);
    assertEquals(16, q.maxRowsPerGroup(), "the stand-in is the limited read's largest bound");

    Query wide = Query.from(selfJoin(4096)).privacyUnit("uid").estimateMaxRowsPerGroup()
        .count("n").epsilon(1e9).build();
    assertEquals(4096, wide.maxRowsPerGroup());
    Result w = run(wide);
    assertEquals(4096, w.estimatedMaxRowsPerGroup());
    assertEquals(300 + 4096, w.rows().get(0).get("n").value(), 1e-6);
  }

  /** With L0 = 3 groups the read is limited to 4 (3·4 ≤ 13 < 3·8). */
  @Test
  void build_estimateWithGroups_limitedToL0TimesAPowerOfTwoWithinTheCap() {
    Query q = Query.from(selfJoin(13)).privacyUnit("uid").maxGroupsContributed(3)
        .estimateMaxRowsPerGroup().groupBy("g").publicGroups("a").count("n").epsilon(1).build();
    assertEquals(4, q.maxRowsPerGroup());
    assertEquals(4, q.contributionBoundEstimate().orElseThrow().largestBound());
  }

  @Test
  void build_boundsAboveTheSmallestCap_refusedNamingTheParameter() {
    refused("maxRowsContributed", () -> Query.from(selfJoin(16)).privacyUnit("uid")
        .maxRowsContributed(17).count("n").epsilon(1));
    refused("maxRowsPerGroup", () -> Query.from(selfJoin(16)).privacyUnit("uid")
        .maxRowsPerGroup(17).count("n").epsilon(1));
    refused("maxRowsPerGroup", () -> Query.from(selfJoin(16)).privacyUnit("uid")
        .maxGroupsContributed(2).maxRowsPerGroup(9).groupBy("g").publicGroups("a").count("n")
        .epsilon(1));
    refused("maxGroupsContributed", () -> Query.from(selfJoin(16)).privacyUnit("uid")
        .maxGroupsContributed(17).maxRowsPerGroup(1).groupBy("g").publicGroups("a").count("n")
        .epsilon(1));
    refused("maxGroupsContributed", () -> Query.from(selfJoin(16)).privacyUnit("uid")
        .maxGroupsContributed(17).estimateMaxRowsPerGroup().groupBy("g").publicGroups("a")
        .count("n").epsilon(1));
    refused("truncateR2T", () -> Query.from(selfJoin(16)).privacyUnit("uid").truncateR2T(17)
        .count("n").epsilon(1)); // 2^⌈log2 17⌉ = 32 > 16
    refused("maxGroupsContributed", () -> Query.from(selfJoin(16)).privacyUnit("uid")
        .truncateR2T(2).maxGroupsContributed(9).groupBy("g").publicGroups("a").count("n")
        .epsilon(1)); // 9·2 > 16
    refused("truncateR2T", () -> Query.from(selfJoin(16)).privacyUnit("uid").truncateR2T(16)
        .sum("s", "x", 0, 1).epsilon(1)); // R2T over the caps: COUNT only
    // The smallest cap counts: one copy at 16, the other at 4,096.
    Relation a = new Relation.UnitCap(scan("a"), "a.uid", 4096, 7);
    Relation b = new Relation.UnitCap(scan("b"), "b.uid", 16, 7);
    Source mixed = new Source.Relational(new Relation.Project(new Relation.Join(
        Relation.JoinKind.INNER, a, b, List.of(new Relation.Join.Key("a.uid", "b.uid")),
        Relation.JoinRole.UNIT), List.of(new Relation.Project.Output("uid", "a.uid"))), "a.uid");
    refused("maxRowsPerGroup", () -> Query.from(mixed).privacyUnit("uid").maxRowsPerGroup(17)
        .count("n").epsilon(1));
  }

  @Test
  void build_boundsAtTheCap_accepted() {
    assertDoesNotThrow(() -> Query.from(selfJoin(16)).privacyUnit("uid").maxRowsContributed(16)
        .count("n").epsilon(1).build());
    assertDoesNotThrow(() -> Query.from(selfJoin(16)).privacyUnit("uid").maxGroupsContributed(2)
        .maxRowsPerGroup(8).groupBy("g").publicGroups("a").count("n").epsilon(1).build());
    assertDoesNotThrow(() -> Query.from(selfJoin(16)).privacyUnit("uid").truncateR2T(16)
        .count("n").epsilon(1).build());
    assertDoesNotThrow(() -> Query.from(selfJoin(16)).privacyUnit("uid").maxGroupsContributed(2)
        .truncateR2T(8).groupBy("g").publicGroups("a").count("n").epsilon(1).build());
  }

  private static void refused(String parameter, Supplier<Query.Builder> b) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.get().build());
    assertTrue(e.getMessage().startsWith(parameter), e.getMessage());
    assertTrue(e.getMessage().contains("unit cap"), e.getMessage());
  }
}
