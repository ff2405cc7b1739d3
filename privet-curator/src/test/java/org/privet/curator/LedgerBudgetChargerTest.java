package org.privet.curator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BudgetExceededException;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.Charge;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.testing.SeededRandomSource;

/** The ledger as the engine's budget charger: charge first, refuse without releasing. */
class LedgerBudgetChargerTest {
  @TempDir Path dir;

  @Test
  void charge_engineQueries_recordedPerMechanismAndRefusedBeyondTheBudget() throws Exception {
    Path csv = dir.resolve("t.csv");
    StringBuilder rows = new StringBuilder("id,v\n");
    for (int i = 0; i < 50; i++) {
      rows.append(i).append(',').append(i % 10).append('\n');
    }
    Files.writeString(csv, rows);
    Query q = Query.from(Source.csv(csv)).privacyUnit("id").maxRowsPerGroup(1)
        .count("n").sum("s", "v", 0, 10).epsilon(0.5).build();
    try (Ledger ledger = Ledger.open(dir.resolve("ws"));
        DuckDbBackend backend = DuckDbBackend.inMemory()) {
      ledger.register(DatasetSpec.builder().name("t").source(csv.toString())
          .privacyUnit(PrivacyUnit.column("id")).budget(new ApproxDp(0.75, 0)).build());
      LedgerBudgetCharger first = new LedgerBudgetCharger(ledger, "t", "ann", "first");
      Result r = session(backend, first).run(q);
      assertEquals(1, r.rows().size());
      Charge c = first.committed().orElseThrow();
      assertEquals(r.receipt().charge().mechanisms().size(), c.cost().size(), "one entry per mechanism");
      assertTrue(((ApproxDp) c.spent()).epsilon() <= 0.5, c.toString());

      LedgerBudgetCharger second = new LedgerBudgetCharger(ledger, "t", "ann", "second");
      assertThrows(BudgetExceededException.class, () -> session(backend, second).run(q));
      assertTrue(second.committed().isEmpty());
      assertEquals(List.of("first"), ledger.history("t").stream().map(Charge::query).toList());
      assertThrows(IllegalStateException.class, () -> first.charge(r.receipt().charge()),
          "a charger charges one query only");
    }
  }

  private static Session session(DuckDbBackend backend, LedgerBudgetCharger charger) {
    return Session.builder().backend(backend).budgetCharger(charger)
        .randomSource(new SeededRandomSource(7)).build();
  }
}
