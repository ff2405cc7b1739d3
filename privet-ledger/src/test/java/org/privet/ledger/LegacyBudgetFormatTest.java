package org.privet.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.Budget;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PureDp;

/**
 * The ledger's budgets are core's {@link Budget} now; a ledger written before, which kept
 * {@code --epsilon E} as {@code {"measure":"approx","epsilon":E,"delta":0.0}}, still opens: its
 * totals and grants read as the same pure ε, every charge is kept, and charging goes on exactly
 * as it would have. The stored form of a budget is unchanged, so older readers read new ledgers.
 */
class LegacyBudgetFormatTest extends OnEachStore {

  private static final String OLD_TOTAL = "{\"measure\":\"approx\",\"epsilon\":1.0,\"delta\":0.0}";
  private static final String OLD_SHARE = "{\"measure\":\"approx\",\"epsilon\":0.5,\"delta\":0.0}";

  /** Writes a dataset and a grant as a ledger from before Budget did (rows inserted as they were). */
  private void writeOldLedger() throws Exception {
    DatasetSpec spec = DatasetSpec.builder().name("old").source("/data/adult.csv")
        .privacyUnit(PrivacyUnit.column("person_id")).budget(new PureDp(1)).build();
    ObjectNode json = LedgerJson.dataset(spec);
    json.set("budget", LedgerJson.read(OLD_TOTAL));
    try (Connection c = where.raw()) {
      try (PreparedStatement p = c.prepareStatement(
          "INSERT INTO datasets(name, spec, registered_at) VALUES (?, ?, ?)")) {
        p.setString(1, "old");
        p.setString(2, LedgerJson.write(json));
        p.setString(3, "2026-01-01T00:00:00Z");
        p.executeUpdate();
      }
      try (PreparedStatement p = c.prepareStatement(
          "INSERT INTO grants(dataset, analyst, share, granted_at) VALUES (?, ?, ?, ?)")) {
        p.setString(1, "old");
        p.setString(2, "ann");
        p.setString(3, OLD_SHARE);
        p.setString(4, "2026-01-01T00:00:01Z");
        p.executeUpdate();
      }
    }
  }

  @Test
  void oldApproxWithZeroDelta_readsAsPureEpsilon_andChargesAsBefore() throws Exception {
    writeOldLedger();
    ledger.close();
    ledger = where.open();

    assertEquals(Budget.pure(1), ledger.dataset("old").budget());
    assertEquals(Budget.pure(0.5), ledger.grants("old").get(0).share());

    ledger.charge("old", "ann", "q1", List.of(new PureDp(0.5)));
    assertThrows(BudgetExceededException.class,
        () -> ledger.charge("old", "ann", "q2", List.of(new PureDp(0.125))));
    ledger.charge("old", "bob", "q3", List.of(new ApproxDp(0.5, 0)));
    assertThrows(BudgetExceededException.class,
        () -> ledger.charge("old", "bob", "q4", List.of(new PureDp(0x1p-20))));

    BudgetStatus total = ledger.status("old");
    assertEquals(Budget.pure(1), total.total());
    assertEquals(new ApproxDp(1.0, 0.0), total.spent());
    assertEquals(new ApproxDp(0.0, 0.0), total.remaining());
    assertEquals(2, total.charges());
    assertEquals(Budget.pure(0.5), ledger.status("old", "ann").total());
    assertEquals(List.of("q1", "q3"), ledger.history("old").stream().map(Charge::query).toList());
    assertEquals(1, ledger.grants("old").size());
  }

  @Test
  void budgets_storedInTheFormOlderLedgersWrote() {
    assertEquals("{\"measure\":\"pure\",\"epsilon\":1.0}", LedgerJson.write(LedgerJson.budget(Budget.pure(1))));
    assertEquals("{\"measure\":\"approx\",\"epsilon\":1.0,\"delta\":1.0E-6}",
        LedgerJson.write(LedgerJson.budget(Budget.approx(1, 1e-6))));
    assertEquals("{\"measure\":\"approx-zcdp\",\"rho\":0.5,\"delta\":1.0E-6}",
        LedgerJson.write(LedgerJson.budget(Budget.zcdp(0.5, 1e-6))));
    assertEquals(Budget.approx(1, 1e-6), LedgerJson.readBudget(LedgerJson.budget(Budget.approx(1, 1e-6))));
  }
}
