package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.selection.SetUnionSelectionTest;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * End-to-end set union ({@link Thresholding#SET_UNION}) on DuckDB: EXPLAIN, the charge, the
 * released groups, and a group only one unit has on neighbouring tables.
 *
 * <p>One Clopper–Pearson check at level 1 − 1e-4 (fixed seed): false-failure probability below
 * 1e-4. Its power against too little noise is shown in {@link SetUnionSelectionTest}.
 */
class SetUnionSessionTest {
  private static final double DELTA = 0.2;

  /** 60 units in crowd1, crowd2 and crowd3; with {@code solo}, unit 999 alone in "solo". */
  private static void table(DuckDbBackend db, String name, boolean solo) {
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 60; u++) {
      for (String g : new String[] {"crowd1", "crowd2", "crowd3"}) {
        rows.add(Arrays.asList(u, g, 1.0));
      }
    }
    if (solo) {
      rows.add(Arrays.asList(999L, "solo", 1.0));
      rows.add(Arrays.asList(999L, "crowd1", 1.0));
    }
    TestTables.register(db, name, rows);
  }

  private static Query query(String table, Thresholding t) {
    return Query.from(table).privacyUnit("uid").maxGroupsContributed(3).maxRowsPerGroup(1)
        .groupBy("g").count("n").thresholding(t).epsilonDelta(1, DELTA).build();
  }

  @Test
  void run_neighbouringTables_soloGroupAtMostDeltaCrowdAlways() {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      table(db, "with", true);
      table(db, "without", false);
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(31)).build();
      Plan plan = s.explain(query("with", Thresholding.SET_UNION));
      String text = plan.render();
      assertTrue(text.contains("SetUnion(policy Gaussian"), text);
      assertTrue(text.contains("group selection: thresholding = SET_UNION → set union"), text);
      int runs = 200;
      long solo = 0;
      long crowd = 0;
      for (int i = 0; i < runs; i++) {
        for (String table : new String[] {"with", "without"}) {
          Result r = s.run(query(table, Thresholding.SET_UNION));
          List<Object> keys = r.rows().stream().map(row -> row.key().get(0)).map(Object.class::cast)
              .toList();
          if (table.equals("without")) {
            assertTrue(!keys.contains("solo"), "a group absent from the table is never released");
          } else if (keys.contains("solo")) {
            solo++;
          }
          if (keys.containsAll(List.of("crowd1", "crowd2", "crowd3"))) {
            crowd++;
          }
          for (ResultRow row : r.rows()) {
            assertTrue(row.values().containsKey("n"), "released groups carry their count");
          }
        }
      }
      ClopperPearson.Interval ci = ClopperPearson.interval(solo, runs, 1 - 1e-4);
      assertTrue(ci.lower() <= DELTA, "solo released " + solo + "/" + runs + " > δ");
      assertTrue(crowd >= 2 * runs * 0.99, "60-unit groups are released: " + crowd);
    }
  }

  @Test
  void explain_chargeIsTheComposedLossAndAutoSaysSetUnionIsOptIn() {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      table(db, "t", true);
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(32)).build();
      Plan plan = s.explain(query("t", Thresholding.SET_UNION));
      assertEquals(2, plan.mechanisms().size());
      assertTrue(plan.mechanisms().get(0).cost().loss() instanceof org.privet.accounting.ApproxZcdp,
          plan.render());
      assertTrue(plan.mechanisms().get(0).cost().purpose().contains("set union"), plan.render());
      String auto = s.explain(query("t", Thresholding.AUTO)).render();
      assertTrue(auto.contains("set union (group_selection_strategy = SET_UNION) is opt-in"),
          auto);
    }
  }

  @Test
  void run_rhoDeltaBudget_chargesTheComposedZcdpLoss() {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      table(db, "t", true);
      List<ChargeRequest> charges = new ArrayList<>();
      Session s = Session.builder().backend(db).budgetCharger(charges::add)
          .randomSource(new SeededRandomSource(33)).build();
      Query q = Query.from("t").privacyUnit("uid").maxGroupsContributed(3).maxRowsPerGroup(1)
          .groupBy("g").count("n").thresholding(Thresholding.SET_UNION).rhoDelta(0.5, 1e-5)
          .build();
      Result r = s.run(q);
      assertEquals(1, charges.size());
      assertTrue(charges.get(0).total() instanceof org.privet.accounting.ApproxZcdp,
          charges.get(0).total().toString());
      assertTrue(r.rows().size() >= 3, "the crowd groups are released");
    }
  }
}
