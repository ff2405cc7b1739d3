package org.privet.curator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PureDp;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.AccountantKind;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.sql.DpStatement;

/**
 * {@code max_error} through the ledger (issue 16): EXPLAIN shows the solved cost against the
 * remaining budget, a run charges exactly the solved cost, and a run the remaining budget cannot
 * pay is refused with budget_exceeded, saying what that budget would buy, and charges nothing.
 */
class MaxErrorExecutionTest {
  @TempDir Path dir;
  private Path csv;

  @BeforeEach
  void data() throws Exception {
    csv = TestCsv.idGroupValue(dir.resolve("t.csv"), 400);
  }

  private static String sql(double countTarget, double meanTarget) {
    return "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (n => " + countTarget
        + ", m => " + meanTarget + "), confidence = 0.95, min_count = 150, public_groups = ('a',"
        + " 'b')) g, COUNT(*) AS n, AVG(v, contribution_bounds_per_row => (0, 10)) AS m FROM t"
        + " GROUP BY g";
  }

  private Ledger ledger() throws Exception {
    Ledger ledger = Ledger.open(dir.resolve("ws"));
    ledger.register(DatasetSpec.builder().name("t").source(csv.toString())
        .privacyUnit(PrivacyUnit.column("id")).budget(new PureDp(1.0))
        .accountant(AccountantKind.BASIC).build(),
        LedgerCatalog.registered(org.privet.engine.PublicSchema.parse("id:integer,g:string,v:double"),
            org.privet.ledger.RegisteredSchema.Origin.DECLARED));
    return ledger;
  }

  @Test
  void explainAndRun_affordableTargets_chargeExactlyTheSolvedCost() throws Exception {
    try (Ledger ledger = ledger(); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      QueryExecution ex = new QueryExecution(ledger, backend);
      DpStatement st = ex.parse(sql(20, 1.0));
      String plan = ex.explain(st);
      assertTrue(plan.contains("solved budget: epsilon"), plan);
      assertTrue(plan.contains("remaining budget:") && plan.contains("fits"), plan);
      assertTrue(ledger.history("t").isEmpty());
      QueryExecution.Outcome out = ex.run(st, "ann", new PrintWriter(new StringWriter()));
      double charged = out.charge().cost().stream()
          .mapToDouble(c -> ((PureDp) c).epsilon()).sum();
      double solved = ((PureDp) ex.plan(st).total()).epsilon();
      assertEquals(solved, charged, 1e-12 * solved);
      assertEquals(1, ledger.history("t").size());
    }
  }

  @Test
  void run_targetsBeyondRemainingBudget_refusedSayingWhatItBuysChargingNothing() throws Exception {
    try (Ledger ledger = ledger(); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      QueryExecution ex = new QueryExecution(ledger, backend);
      DpStatement st = ex.parse(sql(2, 0.05));
      assertTrue(ex.explain(st).contains("does not fit"));
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> ex.run(st, "ann", new PrintWriter(new StringWriter())));
      assertTrue(e.getMessage().contains("would buy") && e.getMessage().contains("n =>"),
          e.getMessage());
      assertTrue(ledger.history("t").isEmpty());
    }
  }
}
