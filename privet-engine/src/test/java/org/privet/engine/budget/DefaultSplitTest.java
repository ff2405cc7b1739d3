package org.privet.engine.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.privet.accounting.Budget;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.engine.Aggregation;
import org.privet.engine.BudgetCharger;
import org.privet.engine.MechanismCost;
import org.privet.engine.Plan;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.SplitReport;
import org.privet.engine.TestTables;
import org.privet.engine.Thresholding;
import org.privet.engine.compile.CompiledQuery;
import org.privet.engine.compile.Compiler;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;
import org.privet.testing.SeededRandomSource;

/**
 * The default budget split (issues 17 and 22; {@link DefaultSplit}): the textbook equal split per
 * output with shared releases summed, one output takes everything but selection, every release
 * gets at least its textbook part, and the split never spends more than the budget.
 */
class DefaultSplitTest {
  private static final TableSchema SCHEMA = new TableSchema(List.of(
      new TableSchema.Column("uid", ColumnType.INTEGER, "BIGINT"),
      new TableSchema.Column("g", ColumnType.STRING, "VARCHAR"),
      new TableSchema.Column("x", ColumnType.FLOATING, "DOUBLE")));

  private static Query.Builder publicGroups() {
    return Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(1)
        .groupBy("g").publicGroups("a", "b");
  }

  private static Query.Builder privateGroups() {
    return Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(1)
        .groupBy("g");
  }

  private static CompiledQuery compile(Query q) {
    return Compiler.compile(q, SCHEMA, 0L);
  }

  private static double epsilon(MechanismCost c) {
    return ((PureDp) c.loss()).epsilon();
  }

  @Test
  void defaultSplit_countAndSum_equalHalvesUnderEpsilonAndRho() {
    // The textbook plan: each output half of the budget, whatever the bounds (issue 22: issue 17's
    // J-optimum gave the SUM over [0, 8] 4^(1/3) times the COUNT's ε, the COUNT 39% instead of 50%).
    CompiledQuery c = compile(publicGroups().count("n").sum("s", "x", 0, 8).epsilon(1).build());
    assertEquals(0.5, epsilon(c.costs().get(0)), 1e-9);
    assertEquals(0.5, epsilon(c.costs().get(1)), 1e-9);
    CompiledQuery z = compile(publicGroups().count("n").sum("s", "x", 0, 8).rho(0.5).build());
    assertEquals(0.25, ((Zcdp) z.costs().get(0).loss()).rho(), 1e-9);
    assertEquals(0.25, ((Zcdp) z.costs().get(1).loss()).rho(), 1e-9);
  }

  @Test
  void defaultSplit_meanAlone_halvesBetweenItsCentredSumAndCount() {
    // The README's demo shape (issue 22): AVG with only group bounds, the row clamp a wide stand-in.
    CompiledQuery c = compile(publicGroups().mean("m", "x", -102400, 102400,
        Aggregation.GroupBounds.of(0, 100)).epsilon(0.5).build());
    assertEquals(0.25, epsilon(c.costs().get(0)), 1e-9);
    assertEquals(0.25, epsilon(c.costs().get(1)), 1e-9);
  }

  @Test
  void defaultSplit_sharedSum_getsThePartsOfEveryOutputReadingIt() {
    // COUNT 1/3; SUM 1/3 and AVG 1/3 (1/6 sum, 1/6 count): the shared sum gets 1/3 + 1/6.
    Query q = publicGroups().count("n").sum("s", "x", -100, 100).mean("m", "x", -100, 100)
        .epsilon(1).build();
    CompiledQuery c = compile(q);
    double[] shares = {1.0 / 3, 0.5, 1.0 / 6};
    assertEquals(List.of("n", "s, m", "m"), c.costs().stream().map(MechanismCost::output).toList());
    for (int i = 0; i < shares.length; i++) {
      assertEquals(shares[i], c.costs().get(i).share(), 1e-9);
    }
  }

  @Test
  void defaultSplit_selectionServingACount_getsItsTextbookParts() {
    // COUNT(DISTINCT unit) served by selection's noisy count, SUM and VARIANCE with releases:
    // selection stands for itself and the count, 2 of the textbook's 4 parts; SUM 1/4, each of
    // VARIANCE's three releases 1/12.
    Query q = privateGroups().countDistinctUnits("u").sum("s", "x", 0, 8)
        .variance("v", "x", 0, 8).epsilonDelta(1, 1e-6)
        .thresholding(Thresholding.POST_AGGREGATION).build();
    CompiledQuery c = compile(q);
    assertTrue(c.selection().kind().noisyCount());
    assertEquals(List.of("<groups>", "s", "v", "v", "v"),
        c.costs().stream().map(MechanismCost::output).toList());
    double[] shares = {0.5, 0.25, 1.0 / 12, 1.0 / 12, 1.0 / 12};
    for (int i = 0; i < shares.length; i++) {
      assertEquals(shares[i], c.costs().get(i).share(), 1e-9, c.costs().get(i).output());
    }
  }

  @Test
  void defaultSplit_oneOutputWithSelection_getsEverythingButSelection() {
    for (Query q : List.of(
        privateGroups().count("n").epsilonDelta(1, 1e-6).thresholding(Thresholding.LAPLACE).build(),
        privateGroups().mean("m", "x", -3, 5).epsilonDelta(1, 1e-6).build(),
        privateGroups().sum("s", "x", 0, 5).rhoDelta(0.3, 1e-6).build(),
        publicGroups().variance("v", "x", 0, 10).epsilon(0.5).build())) {
      CompiledQuery c = compile(q);
      CompiledQuery eq = compile(DefaultSplit.equalSplitQuery(q, c));
      double outputs = 0;
      int first = c.selection() != null ? 1 : 0;
      for (int i = first; i < c.costs().size(); i++) {
        outputs += c.costs().get(i).share();
      }
      double selection = first == 1 ? c.costs().get(0).share() : 0;
      assertEquals(1, outputs + selection, 1e-9, q.toString());
      // Selection keeps the share the equal split gives it.
      assertEquals(first == 1 ? eq.costs().get(0).share() : 0, selection, 1e-12, q.toString());
      assertTrue(q.budget().admits(c.total()), q.toString());
    }
  }

  @Test
  void explain_showsTheSplitTheObjectiveAndEachShare() {
    try (org.privet.engine.duckdb.DuckDbBackend db =
        org.privet.engine.duckdb.DuckDbBackend.inMemory()) {
      TestTables.register(db, "t", List.of(List.of(1L, "a", 1.0)));
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(3)).build();
      Plan p = s.explain(privateGroups().count("n").sum("s", "x", 0, 8)
          .epsilonDelta(1, 1e-6).thresholding(Thresholding.LAPLACE).build());
      assertNotNull(p.split());
      String text = p.render();
      assertTrue(text.contains("budget split: default, the textbook equal split"), text);
      assertTrue(text.contains("expected error s.d."), text);
      assertTrue(text.contains("default split: the textbook equal split"), text);
      assertEquals(List.of("n", "s"),
          p.split().outputs().stream().map(SplitReport.OutputError::output).toList());
      // Relative s.d. read at the group size where selection releases half the time.
      assertTrue(p.split().groupSize() > 1);
      // With explicit weights the report says so.
      Plan explicit = s.explain(privateGroups().count("n").sum("s", "x", 0, 8)
          .budgetWeight("n", 1).epsilonDelta(1, 1e-6).build());
      assertTrue(explicit.render().contains("budget split: explicit budget weights"));
    }
  }

  /** A random query shape: outputs, bounds, contribution bounds, budget family, groups. */
  @Provide
  Arbitrary<Query> queries() {
    Arbitrary<Integer> mask = Arbitraries.integers().between(1, 127);
    Arbitrary<Double> lo = Arbitraries.doubles().between(-1e4, 1e4).ofScale(4);
    Arbitrary<Double> width = Arbitraries.doubles().between(1e-3, 1e5).ofScale(4);
    Arbitrary<Integer> family = Arbitraries.integers().between(0, 3);
    Arbitrary<Double> eps = Arbitraries.doubles().between(1e-3, 10).ofScale(4);
    Arbitrary<Integer> bounds = Arbitraries.integers().between(1, 20);
    Arbitrary<Boolean> selection = Arbitraries.of(true, false);
    return Combinators.combine(mask, lo, width, family, eps, bounds, selection)
        .as((m, l, w, f, e, b, sel) -> {
          Query.Builder q = Query.from("t").privacyUnit("uid").maxGroupsContributed(b)
              .maxRowsPerGroup(1 + b % 3).groupBy("g");
          if (!sel || f == 0 || f == 2) {
            q.publicGroups("a", "b");
          }
          double h = l + w;
          if ((m & 1) != 0) {
            q.count("n");
          }
          if ((m & 2) != 0) {
            q.sum("s", "x", l, h);
          }
          if ((m & 4) != 0) {
            q.mean("m", "x", l, h);
          }
          if ((m & 8) != 0) {
            q.variance("v", "x", l, h);
          }
          if ((m & 16) != 0) {
            q.histogram("h", "x", l, h, 8);
          }
          if ((m & 32) != 0) {
            q.quantiles("q", "x", l, h, 0.5);
          }
          if ((m & 64) != 0) {
            q.mean("m2", "x", l, h + 1);
          }
          switch (f) {
            case 0 -> q.epsilon(e);
            case 1 -> q.epsilonDelta(e, 1e-6);
            case 2 -> q.rho(e / 4);
            default -> q.rhoDelta(e / 4, 1e-6);
          }
          return q.build();
        });
  }

  @Property(tries = 150, seed = "17")
  void defaultSplit_neverSpendsMoreThanTheBudget(@ForAll("queries") Query q) {
    CompiledQuery c = compile(q);
    Budget b = q.budget();
    assertTrue(b.admits(c.total()), q + " → " + c.total());
    // Recomposed independently from the receipt's parts.
    List<PrivacyLoss> parts = c.costs().stream().map(MechanismCost::loss).toList();
    assertTrue(b.admits(CompiledQuery.composedCost(b, parts)), q.toString());
    double shares = c.costs().stream().mapToDouble(MechanismCost::share).sum();
    assertEquals(1, shares, 1e-9, q.toString());
    if (DefaultSplit.applies(q)) {
      // Never worse than the textbook plan: each distinct release of each output gets at least
      // its textbook part, (the releases' total share) / (outputs) / (the output's releases).
      int first = c.selection() != null ? 1 : 0;
      double releases = 0;
      for (int i = first; i < c.costs().size(); i++) {
        releases += c.costs().get(i).share();
      }
      List<List<Integer>> reads = c.outputs().stream()
          .map(o -> o.releases().stream().distinct().toList()).filter(r -> !r.isEmpty()).toList();
      for (List<Integer> r : reads) {
        for (int i : r) {
          double textbook = releases / reads.size() / r.size();
          assertTrue(c.costs().get(first + i).share() >= textbook * (1 - 1e-9),
              q + ": release " + i + " " + c.costs().get(first + i).share() + " < " + textbook);
        }
      }
    }
    if (c.outputs().size() == 1 && c.selection() == null) {
      // One output: all of the budget goes to its releases.
      assertEquals(c.releases().size(), c.costs().size());
    }
  }
}
