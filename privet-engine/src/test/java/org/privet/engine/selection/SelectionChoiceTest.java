package org.privet.engine.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.ChargeRequest;
import org.privet.engine.NoiseKind;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.ResultRow;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.TestTables;
import org.privet.engine.Thresholding;
import org.privet.engine.compile.CompiledQuery;
import org.privet.engine.compile.Compiler;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.TableSchema;
import org.privet.testing.SeededRandomSource;

/** The planner's choice of partition-selection strategy ({@link SelectionChoice}). */
class SelectionChoiceTest {
  private static DuckDbBackend db;
  private static TableSchema schema;

  @BeforeAll
  static void tables() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 300; u++) {
      rows.add(Arrays.asList(u, u < 250 ? "big" : "small", (double) (u % 7)));
    }
    TestTables.register(db, "t", rows);
    schema = db.describe(Source.table("t"));
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Query.Builder base() {
    return Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(1)
        .groupBy("g");
  }

  private static CompiledQuery compile(Query q) {
    return Compiler.compile(q, schema, 0);
  }

  @Test
  void auto_countStarAtLinfOne_reusesTheCountAndMeetsTheIssueTargets() {
    // Issue 17: SELECT g, COUNT(*) at (0.1, 1e-5), L0 = 1: at most 115 units at ε = 0.1, 14 at 1.
    for (double[] t : new double[][] {{0.1, 115}, {1, 14}}) {
      CompiledQuery c = compile(base().count("n").epsilonDelta(t[0], 1e-5).build());
      assertTrue(c.releases().isEmpty(), "the count has no release of its own");
      assertTrue(c.selection().kind().noisyCount());
      assertTrue(c.selection().unitsForHalfRelease() <= t[1],
          "ε=" + t[0] + ": " + c.selection().describe());
      String why = String.join("\n", c.bounds());
      assertTrue(why.contains("AUTO chose post-aggregation thresholding"), why);
      assertTrue(why.contains("optimal selection: "), why);
      assertEquals(1, c.costs().size(), "one measurement: " + c.costs());
    }
  }

  @Test
  void explain_issueQuery_saysWhichStrategyAndWhy() {
    Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited()).build();
    String plan = s.explain(base().count("n").epsilonDelta(0.1, 1e-5).build()).render();
    assertTrue(plan.contains("group selection: AUTO chose post-aggregation thresholding (Laplace)"
        + ": a group is released with probability ≥ ½ from 110 distinct units"), plan);
    assertTrue(plan.contains("separate threshold (Laplace): 218"), plan);
    assertTrue(plan.contains("n: the partition selection's noisy distinct-unit count"), plan);
  }

  @Test
  void auto_noCountStatistic_choosesTheOptimalMechanism() {
    // SUM only: no count to reuse; at L0 = 1 the optimal mechanism beats a separate threshold.
    CompiledQuery c = compile(base().sum("s", "x", 0, 10).epsilonDelta(1, 1e-5).build());
    assertEquals(PartitionSelection.Kind.OPTIMAL, c.selection().kind());
    PartitionSelection laplace = PartitionSelection.laplace(0.5 * (1 - 1e-9), 1e-5, 1);
    assertTrue(c.selection().unitsForHalfRelease() < laplace.unitsForHalfRelease());
    assertTrue(String.join("\n", c.bounds()).contains("AUTO chose optimal selection"));
  }

  @Test
  void auto_countWithLinfTwo_isNotReused() {
    CompiledQuery c = compile(Query.from("t").privacyUnit("uid").maxGroupsContributed(1)
        .maxRowsPerGroup(2).groupBy("g").count("n").epsilonDelta(1, 1e-5).build());
    assertEquals(1, c.releases().size(), "COUNT(*) at L∞ = 2 counts rows, not units");
    assertEquals(PartitionSelection.Kind.OPTIMAL, c.selection().kind());
  }

  @Test
  void auto_largeL0_prefersGaussianReuseOrThreshold() {
    // L0 = 20 under Gaussian noise: the optimal mechanism at (ε/20, δ/20) loses.
    CompiledQuery c = compile(Query.from("t").privacyUnit("uid").maxGroupsContributed(20)
        .maxRowsPerGroup(1).groupBy("g").count("n").noise(NoiseKind.GAUSSIAN)
        .epsilonDelta(1, 1e-6).build());
    assertEquals(PartitionSelection.Kind.GAUSSIAN, c.selection().kind());
  }

  @Test
  void forced_strategies_areHonoured() {
    Query.Builder q = base().count("n").epsilonDelta(1, 1e-5);
    assertEquals(PartitionSelection.Kind.LAPLACE,
        compile(q.thresholding(Thresholding.LAPLACE).build()).selection().kind());
    CompiledQuery lap = compile(q.thresholding(Thresholding.LAPLACE).build());
    assertEquals(1, lap.releases().size(), "a forced threshold is a separate measurement");
    assertTrue(String.join("\n", lap.bounds()).contains("thresholding = LAPLACE"));
    assertEquals(PartitionSelection.Kind.OPTIMAL,
        compile(q.thresholding(Thresholding.OPTIMAL).build()).selection().kind());
    CompiledQuery post = compile(q.thresholding(Thresholding.POST_AGGREGATION).build());
    assertTrue(post.releases().isEmpty());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> base().sum("s", "x", 0, 1).epsilonDelta(1, 1e-5)
            .thresholding(Thresholding.POST_AGGREGATION).build());
    assertTrue(e.getMessage().contains("thresholding"), e.getMessage());
  }

  @Test
  void run_reusedCount_releasesTheSelectionCountAtOrAboveTheThreshold() {
    Query q = base().count("n").sum("s", "x", 0, 10).epsilonDelta(1, 1e-5).build();
    List<ChargeRequest> seen = new ArrayList<>();
    Session s = Session.builder().backend(db).budgetCharger(seen::add)
        .randomSource(new SeededRandomSource(41)).build();
    CompiledQuery c = compile(q);
    long tau = c.selection().threshold();
    Result r = s.run(q);
    assertEquals(2, seen.get(0).mechanisms().size(), "selection (= the count) and the sum");
    assertTrue(q.budget().admits(seen.get(0).total()));
    for (ResultRow row : r.rows()) {
      assertTrue(row.get("n").value() >= tau - 1, row + " below the boundary τ − 1 = " + (tau - 1));
      assertTrue(row.get("n").lower() <= row.get("n").value());
    }
    assertTrue(r.rows().stream().anyMatch(row -> row.key().equals(List.of("big"))));
  }
}
