package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.Budget;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.engine.compile.CompiledQuery;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupSink;
import org.privet.engine.spi.TableSchema;
import org.privet.testing.SeededRandomSource;

class SessionTest {
  private DuckDbBackend db;

  @BeforeEach
  void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 500; u++) {
      for (int r = 0; r < 2; r++) {
        rows.add(Arrays.asList(u, "big", (double) (u % 10)));
      }
    }
    rows.add(Arrays.asList(9999L, "tiny", 1.0));
    TestTables.register(db, "t", rows);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private Session session(long seed, BudgetCharger charger) {
    return Session.builder().backend(db).budgetCharger(charger)
        .randomSource(new SeededRandomSource(seed)).build();
  }

  private Session session(long seed) {
    return session(seed, BudgetCharger.unlimited());
  }

  @Test
  void run_publicGroups_returnsEveryListedGroupInOrderIncludingEmptyOnes() {
    Query q = Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(2)
        .groupBy("g").publicGroups("nobody", "big", "tiny").count("n").mean("m", "x", 0, 10)
        .epsilon(1).build();
    Result r = session(1).run(q);
    assertEquals(3, r.rows().size());
    assertEquals(List.of("nobody"), r.rows().get(0).key());
    assertEquals(List.of("big"), r.rows().get(1).key());
    assertEquals(List.of("tiny"), r.rows().get(2).key());
    double mean = r.rows().get(0).get("m").value();
    assertTrue(mean >= 0 && mean <= 10, "an empty group's mean stays in range");
    assertEquals(1000, r.rows().get(1).get("n").value(), 40);
    assertTrue(r.receipt().charge().total() instanceof PureDp);
  }

  @Test
  void run_privateSelection_suppressesSingleUnitGroupAndKeepsLargeOne() {
    Query q = Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(2)
        .groupBy("g").count("n").epsilonDelta(1, 1e-9).build();
    for (long seed = 0; seed < 20; seed++) {
      Result r = session(seed).run(q);
      assertEquals(1, r.rows().size());
      assertEquals(List.of("big"), r.rows().get(0).key());
    }
  }

  @Test
  void run_emptyTable_releasesNoisyZerosOrNothing() {
    TestTables.register(db, "empty", List.of());
    Result ungrouped = session(2).run(Query.from("empty").privacyUnit("uid").maxRowsPerGroup(1)
        .count("n").sum("s", "x", 0, 1).epsilon(1).build());
    assertEquals(1, ungrouped.rows().size());
    Result grouped = session(3).run(Query.from("empty").privacyUnit("uid").maxRowsPerGroup(1)
        .maxGroupsContributed(1).groupBy("g").count("n").epsilonDelta(1, 1e-6).build());
    assertTrue(grouped.rows().isEmpty());
  }

  @Test
  void run_chargerRefuses_exceptionPropagatesAndNoDataIsRead() {
    AtomicInteger reads = new AtomicInteger();
    Backend counting = new Backend() {
      @Override
      public TableSchema describe(Source source) {
        return db.describe(source);
      }

      @Override
      public void aggregate(BoundedAggregation spec, GroupSink sink) {
        reads.incrementAndGet();
        db.aggregate(spec, sink);
      }

      @Override
      public String physicalPlan(BoundedAggregation spec) {
        return db.physicalPlan(spec);
      }

      @Override
      public void close() {}
    };
    BudgetExceededException refusal = new BudgetExceededException("over budget");
    Session s = Session.builder().backend(counting).budgetCharger(c -> {
      throw refusal;
    }).randomSource(new SeededRandomSource(4)).build();
    Query q = Query.from("t").privacyUnit("uid").maxRowsPerGroup(1).count("n").epsilon(1).build();
    assertSame(refusal, assertThrows(BudgetExceededException.class, () -> s.run(q)));
    assertEquals(0, reads.get());
    s.explain(q);
    assertEquals(0, reads.get(), "explain reads no data");
  }

  @Test
  void explain_chargesNothing() {
    AtomicInteger charges = new AtomicInteger();
    Session s = session(5, c -> charges.incrementAndGet());
    Query q = Query.from("t").privacyUnit("uid").maxRowsPerGroup(1).count("n").epsilon(1).build();
    Plan p = s.explain(q);
    assertEquals(0, charges.get());
    assertTrue(p.render().contains("GeometricMechanism"), p.render());
    s.run(q);
    assertEquals(1, charges.get());
  }

  @Test
  void run_chargeTotal_isTheCompositionAndWithinEachKindOfBudget() {
    Query.Builder common = Query.from("t").privacyUnit("uid").maxRowsPerGroup(2)
        .maxGroupsContributed(1).count("n").mean("m", "x", 0, 10).variance("v", "x", 0, 10)
        .quantiles("q", "x", 0, 10, 0.5).histogram("h", "x", 0, 10, 5);
    List<Budget> budgets = List.of(Budget.pure(1), Budget.approx(1, 1e-6), Budget.zcdp(0.5));
    for (Budget b : budgets) {
      for (NoiseKind kind : NoiseKind.values()) {
        if (kind == NoiseKind.GAUSSIAN && b.loss() instanceof PureDp) {
          continue;
        }
        List<ChargeRequest> seen = new ArrayList<>();
        Query q = Query.from("t").privacyUnit("uid").maxRowsPerGroup(2).count("n")
            .mean("m", "x", 0, 10).variance("v", "x", 0, 10).quantiles("q", "x", 0, 10, 0.5)
            .histogram("h", "x", 0, 10, 5).budget(b).noise(kind).build();
        session(6, seen::add).run(q);
        assertEquals(1, seen.size());
        ChargeRequest c = seen.get(0);
        // count, mean (sum, count), variance (squares; its sum and count are the mean's: shared
        // measurements), quantile tree, histogram.
        assertEquals(1 + 2 + 1 + 1 + 1, c.mechanisms().size());
        assertTrue(CompiledQuery.sameCost(c.total(),
            CompiledQuery.composedCost(b, c.mechanisms().stream().map(MechanismCost::loss).toList())));
        assertTrue(b.admits(c.total()), c.total() + " within " + b);
        if (b.loss() instanceof Zcdp z) {
          assertEquals(z.rho(), ((Zcdp) c.total()).rho(), 1e-6 * z.rho(), "spends the budget");
        } else if (b.loss() instanceof PureDp p) {
          assertEquals(p.epsilon(), ((PureDp) c.total()).epsilon(), 1e-6);
        } else {
          assertEquals(1.0, ((ApproxDp) c.total()).epsilon(), 1e-6);
        }
      }
    }
    assertTrue(common != null);
  }

  @Test
  void run_privateSelection_chargesSelectionAndValuesWithinBudget() {
    List<ChargeRequest> seen = new ArrayList<>();
    Query q = Query.from("t").privacyUnit("uid").maxRowsPerGroup(2).maxGroupsContributed(3)
        .groupBy("g").count("n").sum("s", "x", 0, 10).epsilonDelta(2, 1e-5)
        .noise(NoiseKind.GAUSSIAN).build();
    session(7, seen::add).run(q);
    ChargeRequest c = seen.get(0);
    assertEquals("<groups>", c.mechanisms().get(0).output());
    // Gaussian value noise: AUTO thresholding is Gaussian, charged as approximate zCDP.
    assertTrue(c.mechanisms().get(0).loss() instanceof ApproxZcdp);
    ApproxDp total = (ApproxDp) c.total();
    assertTrue(total.epsilon() <= 2 && total.delta() <= 1e-5, total.toString());
    assertTrue(total.epsilon() > 1.999, total.toString());
  }

  @Test
  void run_privateSelectionUnderEveryBudgetAndThresholding_chargesTheCompositionWithinBudget() {
    List<Budget> budgets = List.of(Budget.approx(2, 1e-5), Budget.zcdp(0.5, 1e-5));
    for (Budget b : budgets) {
      for (NoiseKind noise : NoiseKind.values()) {
        for (Thresholding th : Thresholding.values()) {
          List<ChargeRequest> seen = new ArrayList<>();
          Query.Builder qb = Query.from("t").privacyUnit("uid").maxRowsPerGroup(2)
              .maxGroupsContributed(3).groupBy("g").count("n").sum("s", "x", 0, 10)
              .quantiles("q", "x", 0, 10, 0.5).budget(b).noise(noise).thresholding(th);
          if (th == Thresholding.POST_AGGREGATION) {
            // COUNT(*) at L∞ = 2 counts rows, not units: nothing to threshold.
            assertThrows(IllegalArgumentException.class, qb::build);
            continue;
          }
          Query q = qb.build();
          Result r = session(17, seen::add).run(q);
          ChargeRequest c = seen.get(0);
          String what = b + " " + noise + " " + th;
          MechanismCost sel = c.mechanisms().get(0);
          assertEquals("<groups>", sel.output());
          if (th == Thresholding.LAPLACE || th == Thresholding.GAUSSIAN) {
            assertEquals(th == Thresholding.GAUSSIAN, sel.loss() instanceof ApproxZcdp, what);
            assertTrue(sel.mechanism().contains("τ="), sel.mechanism());
          } else if (th == Thresholding.OPTIMAL) {
            assertTrue(sel.mechanism().startsWith("OptimalSelection("), sel.mechanism());
            assertTrue(sel.loss() instanceof ApproxDp, what);
          }
          assertTrue(CompiledQuery.sameCost(c.total(),
              CompiledQuery.composedCost(b, c.mechanisms().stream().map(MechanismCost::loss).toList())),
              what);
          assertTrue(b.admits(c.total()), c.total() + " within " + b);
          if (b.loss() instanceof ApproxDp a) {
            ApproxDp t = (ApproxDp) c.total();
            assertEquals(a.epsilon(), t.epsilon(), 1e-6, what + " spends ε");
            assertTrue(t.delta() <= a.delta(), what);
          } else {
            ApproxZcdp t = (ApproxZcdp) c.total();
            assertEquals(b.rho(), t.rho(), 1e-6 * b.rho(), what + " spends ρ");
            assertTrue(t.delta() <= b.delta() && t.delta() > 0.99 * b.delta(), what);
          }
          assertTrue(r.rows().stream().anyMatch(row -> row.key().equals(List.of("big"))), what);
        }
      }
    }
  }

  @Test
  void run_privateSelectionAutoUnderZcdp_usesGaussianThresholdAndExplainsIt() {
    Query q = Query.from("t").privacyUnit("uid").maxRowsPerGroup(2).maxGroupsContributed(2)
        .groupBy("g").count("n").rhoDelta(0.5, 1e-6).build();
    String plan = session(18).explain(q).render();
    assertTrue(plan.contains("GaussianThreshold(ρ="), plan);
    assertTrue(plan.contains("σ=") && plan.contains("δ=") && plan.contains("τ="), plan);
    assertTrue(plan.contains("Gaussian threshold"), plan);
  }

  @Test
  void run_privateSelectionUnderPureRho_isRefusedNamingDelta() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Query.from("t").privacyUnit("uid").maxRowsPerGroup(2).maxGroupsContributed(2)
            .groupBy("g").count("n").rho(0.5).build());
    assertTrue(e.getMessage().contains("delta"), e.getMessage());
  }

  @Test
  void run_postAggregationThresholding_releasesSelectionCountForFreeWithCoveringIntervals() {
    // Interval coverage over 200 runs of the 500-unit group (far above τ, so thresholding does not
    // bias it): two-sided Clopper–Pearson at level 1 − 1e-4 must admit a rate ≥ 0.95; the test
    // fails by chance with probability below 1e-4.
    for (Budget b : List.of(Budget.approx(1, 1e-6), Budget.zcdp(0.2, 1e-6))) {
      List<ChargeRequest> seen = new ArrayList<>();
      Query q = Query.from("t").privacyUnit("uid").maxRowsPerGroup(2).maxGroupsContributed(2)
          .groupBy("g").countDistinctUnits("users").count("n").budget(b)
          .postAggregationThresholding().build();
      Session s = session(19, seen::add);
      int covered = 0;
      int runs = 200;
      for (int i = 0; i < runs; i++) {
        Result r = s.run(q);
        for (ResultRow row : r.rows()) {
          Estimate users = row.get("users");
          assertTrue(users.value() >= Double.parseDouble(
              seen.get(0).mechanisms().get(0).mechanism().replaceAll(".*τ=(\\d+).*", "$1")) - 1,
              "released counts reach the threshold (Laplace: or its boundary τ − 1)");
          if (row.key().equals(List.of("big")) && users.lower() <= 500 && users.upper() >= 500) {
            covered++;
          }
        }
      }
      ChargeRequest c = seen.get(0);
      assertEquals(2, c.mechanisms().size(), "selection and the row count only: " + c);
      assertTrue(c.mechanisms().stream().noneMatch(m -> m.output().equals("users")));
      assertTrue(b.admits(c.total()));
      assertTrue(org.privet.testing.ClopperPearson.interval(covered, runs, 1 - 1e-4).upper() >= 0.95,
          b + ": covered " + covered + "/" + runs);
    }
  }

  @Test
  void build_postAggregationThresholdingWithoutPrivateSelectionOrUnitCount_isRejected() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Query.from("t").privacyUnit("uid").maxRowsPerGroup(2).maxGroupsContributed(2)
            .groupBy("g").count("n").epsilonDelta(1, 1e-6).postAggregationThresholding().build());
    assertTrue(e.getMessage().contains("postAggregationThresholding"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Query.from("t").privacyUnit("uid").maxRowsPerGroup(2).maxGroupsContributed(2)
            .groupBy("g").publicGroups("big").countDistinctUnits("u").epsilonDelta(1, 1e-6)
            .postAggregationThresholding().build());
  }

  @Test
  void run_sameSeed_isReproducible() {
    Query q = Query.from("t").privacyUnit("uid").maxRowsPerGroup(2).maxGroupsContributed(1)
        .groupBy("g").count("n").mean("m", "x", 0, 10).epsilonDelta(1, 1e-6).build();
    assertEquals(session(8).run(q).rows(), session(8).run(q).rows());
  }

  @Test
  void run_nullNanAndInfinities_areIgnoredOrClamped() {
    List<List<?>> rows = new ArrayList<>();
    rows.add(Arrays.asList(1L, "g", 4.0));
    rows.add(Arrays.asList(2L, "g", null));
    rows.add(Arrays.asList(3L, "g", Double.NaN));
    rows.add(Arrays.asList(4L, "g", Double.POSITIVE_INFINITY));
    rows.add(Arrays.asList(5L, "g", Double.NEGATIVE_INFINITY));
    TestTables.register(db, "odd", rows);
    Query q = Query.from("odd").privacyUnit("uid").maxRowsPerGroup(1).count("n")
        .mean("m", "x", 0, 10).sum("s", "x", 0, 10).epsilon(1e6).build();
    ResultRow r = session(9).run(q).rows().get(0);
    assertEquals(5, r.get("n").value(), 1e-9);
    assertEquals(14.0, r.get("s").value(), 1e-3);
    assertEquals(14.0 / 3, r.get("m").value(), 1e-3);
  }

  @Test
  void run_largeBudget_quantilesAndHistogramMatchTheData() {
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 1000; u++) {
      rows.add(Arrays.asList(u, "g", u / 100.0));
    }
    TestTables.register(db, "uniform", rows);
    Query q = Query.from("uniform").privacyUnit("uid").maxRowsPerGroup(1)
        .quantiles("q", "x", 0, 10, 0.75, 0.25).histogram("h", "x", 0, 10, 10).epsilon(1e3)
        .build();
    ResultRow r = session(10).run(q).rows().get(0);
    assertEquals(100, r.get("h[3]").value(), 1);
    assertEquals(2.5, r.get("q[0.25]").value(), 0.1);
    assertEquals(7.5, r.get("q[0.75]").value(), 0.1);
  }

  @Test
  void run_rowLevelUnits_countRows() {
    Query q = Query.from("t").eachRowIsAUnit().count("n").epsilon(1e6).build();
    assertEquals(1001, session(11).run(q).rows().get(0).get("n").value(), 1e-9);
  }

  @Test
  void run_filters_restrictRows() {
    Query q = Query.from("t").eachRowIsAUnit()
        .where(Filter.or(Filter.lt("x", 2), Filter.in("g", "tiny"))).where(Filter.not(
            Filter.isNull("x")))
        .count("n").epsilon(1e6).build();
    assertEquals(201, session(12).run(q).rows().get(0).get("n").value(), 1e-9);
  }

  @Test
  void run_badColumns_errorsNameTheColumnAndNoValues() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> session(13).run(Query.from("t").eachRowIsAUnit().sum("s", "g", 0, 1).epsilon(1)
            .build()));
    assertTrue(e.getMessage().contains("'g'") && !e.getMessage().contains("big"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> session(13).run(Query.from("t").eachRowIsAUnit().where(Filter.eq("x", "big"))
            .count("n").epsilon(1).build()));
    assertTrue(e.getMessage().contains("where"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> session(13).run(
        Query.from(Source.csv(Path.of("/nonexistent/secret.csv"))).eachRowIsAUnit().count("n")
            .epsilon(1).build()));
    assertFalse(e.getMessage().contains("/nonexistent"), e.getMessage());
  }
}
