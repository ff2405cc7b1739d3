package org.privet.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.Budget;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.NeighbouringRelation;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;

/** The ledger's contract, run against each store (SQLite and a real PostgreSQL server). */
class LedgerTest extends OnEachStore {

  static DatasetSpec.Builder adult(double epsilon, double delta) {
    return DatasetSpec.builder()
        .name("adult")
        .source("/data/adult.csv")
        .privacyUnit(PrivacyUnit.column("person_id"))
        .budget(new ApproxDp(epsilon, delta));
  }

  @Test
  void register_fullSpec_roundTripsThroughTheStore() {
    DatasetSpec spec = adult(2.0, 1e-6)
        .source("/data/adult.data")
        .csv(new CsvOptions(false, ", ", List.of("age", "sex"), "?"))
        .relation(NeighbouringRelation.REPLACE_ONE)
        .accountant(AccountantKind.ZCDP)
        .publicMetadata(new PublicMetadata(
            Map.of("age", new ColumnBounds(17, 90)), Map.of("sex", List.of("Female", "Male"))))
        .build();
    ledger.register(spec);
    ledger.close();
    ledger = where.open();
    DatasetSpec read = ledger.dataset("adult");
    assertEquals(spec, read);
    assertEquals(SourceFormat.CSV, read.format());
    assertEquals(", ", read.csv().delimiter());
    assertEquals(List.of(spec), ledger.datasets());
  }

  @Test
  void register_rowPrivacyUnit_roundTrips() {
    ledger.register(adult(1, 0).name("rows").privacyUnit(PrivacyUnit.row()).build());
    assertTrue(ledger.dataset("rows").privacyUnit().isRow());
  }

  @Test
  void register_duplicateName_throwsIllegalArgument() {
    ledger.register(adult(1, 0).build());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ledger.register(adult(2, 0).build()));
    assertTrue(e.getMessage().contains("adult"), e.getMessage());
  }

  @Test
  void dataset_unknownName_throwsUnknownDataset() {
    assertThrows(UnknownDatasetException.class, () -> ledger.dataset("nope"));
    assertThrows(UnknownDatasetException.class,
        () -> ledger.charge("nope", "ann", "q", List.of(new PureDp(0.1))));
  }

  @Test
  void builder_badParameters_throwNamingTheParameter() {
    assertParameter("epsilon", () -> adult(-1, 0).build());
    assertParameter("epsilon", () -> adult(0, 0).build());
    assertParameter("delta", () -> adult(1, 1.5).build());
    assertParameter("name", () -> adult(1, 0).name("1; DROP TABLE").build());
    assertParameter("privacyUnit", () -> adult(1, 0).privacyUnit(null).build());
    assertParameter("privacyUnit", () -> PrivacyUnit.column("a b"));
    assertParameter("delta", () -> adult(1, 0).accountant(AccountantKind.ZCDP).build());
    assertParameter("rho", () -> adult(1, 0).budget(new Zcdp(0.5)).build());
    assertParameter("bounds", () -> new ColumnBounds(3, 2));
    assertParameter("accountant", () -> AccountantKind.parse("rdp-magic"));
    assertParameter("columns", () -> new CsvOptions(false, ",", List.of(), ""));
    assertParameter("delimiter", () -> new CsvOptions(true, "", List.of(), ""));
  }

  private static void assertParameter(String name, org.junit.jupiter.api.function.Executable e) {
    IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
    assertTrue(x.getMessage().contains(name), x.getMessage());
  }

  @Test
  void charge_withinBudget_commitsAndAppearsInHistory() {
    ledger.register(adult(1, 0).build());
    Charge c = ledger.charge("adult", "ann", "SELECT ...", List.of(new PureDp(0.25), new PureDp(0.25)));
    assertEquals(new ApproxDp(0.5, 0), c.spent());
    List<Charge> history = ledger.history("adult");
    assertEquals(1, history.size());
    Charge h = history.get(0);
    assertEquals(c.id(), h.id());
    assertEquals("ann", h.analyst());
    assertEquals("SELECT ...", h.query());
    assertEquals(List.of(new PureDp(0.25), new PureDp(0.25)), h.cost());
    assertEquals(c.time(), h.time());
  }

  @Test
  void charge_overBudget_throwsAndChargesNothing() {
    ledger.register(adult(1, 0).build());
    for (int i = 0; i < 4; i++) {
      ledger.charge("adult", "ann", "q" + i, List.of(new PureDp(0.25)));
    }
    BudgetExceededException e = assertThrows(BudgetExceededException.class,
        () -> ledger.charge("adult", "ann", "q4", List.of(new PureDp(0.25))));
    assertTrue(e.getMessage().contains("adult"), e.getMessage());
    assertEquals(4, ledger.history("adult").size());
    BudgetStatus s = ledger.status("adult");
    assertEquals(new ApproxDp(1.0, 0), s.spent());
    assertEquals(new ApproxDp(0.0, 0), s.remaining());
  }

  @Test
  void charge_deltaOverBudget_refused() {
    ledger.register(adult(10, 1e-6).build());
    ledger.charge("adult", "ann", "q", List.of(new ApproxDp(0.1, 6e-7)));
    assertThrows(BudgetExceededException.class,
        () -> ledger.charge("adult", "ann", "q", List.of(new ApproxDp(0.1, 6e-7))));
    assertEquals(1, ledger.history("adult").size());
  }

  @Test
  void charge_zcdpAccountant_admitsManyMoreSmallReleasesThanBasic() {
    ledger.register(adult(1, 1e-6).name("basic").build());
    ledger.register(adult(1, 1e-6).name("tight").accountant(AccountantKind.ZCDP).build());
    // Each charge pays for ten releases of epsilon = 0.01.
    List<PureDp> tenReleases = java.util.Collections.nCopies(10, new PureDp(0.01));
    int basic = chargeUntilRefused("basic", tenReleases);
    int tight = chargeUntilRefused("tight", tenReleases);
    // Basic composition: at most 100 releases of 0.01 fit in 1 (the upward-rounded sum may stop at 99).
    assertTrue(basic == 10 || basic == 9, "basic admitted " + basic + " charges");
    // zCDP: rho = 0.00005 per release; about 0.02 of rho converts to epsilon = 1 at delta = 1e-6.
    assertTrue(tight > 2 * basic, "zcdp admitted " + tight + " charges");
    ApproxDp spent = (ApproxDp) ledger.status("tight").spent();
    assertTrue(spent.epsilon() <= 1.0 && spent.delta() <= 1e-6, spent.toString());
  }

  private int chargeUntilRefused(String dataset, List<PureDp> cost) {
    int n = 0;
    while (true) {
      try {
        ledger.charge(dataset, "ann", "q", cost);
        n++;
      } catch (BudgetExceededException e) {
        return n;
      }
    }
  }

  @Test
  void charge_rhoBudget_addsRhosAndRefusesApproxDp() {
    ledger.register(adult(1, 0).budget(new Zcdp(0.5)).accountant(AccountantKind.ZCDP).build());
    for (int i = 0; i < 4; i++) {
      ledger.charge("adult", "ann", "q", List.of(new Zcdp(0.125)));
    }
    assertThrows(BudgetExceededException.class,
        () -> ledger.charge("adult", "ann", "q", List.of(new Zcdp(0.125))));
    assertEquals(new Zcdp(0.5), ledger.status("adult").spent());
    assertThrows(BudgetExceededException.class,
        () -> ledger.charge("adult", "bob", "q", List.of(new ApproxDp(0.0, 1e-9))));
  }

  @Test
  void grant_share_capsThatAnalystOnly() {
    ledger.register(adult(1, 0).build());
    ledger.grant("adult", "ann", new PureDp(0.25));
    ledger.charge("adult", "ann", "q", List.of(new PureDp(0.25)));
    assertThrows(BudgetExceededException.class,
        () -> ledger.charge("adult", "ann", "q", List.of(new PureDp(0.125))));
    ledger.charge("adult", "bob", "q", List.of(new PureDp(0.75)));
    assertThrows(BudgetExceededException.class,
        () -> ledger.charge("adult", "bob", "q", List.of(new PureDp(0.125))));
    BudgetStatus ann = ledger.status("adult", "ann");
    assertEquals(Budget.pure(0.25), ann.total());
    assertEquals(new ApproxDp(0.25, 0), ann.spent());
    assertEquals(1, ann.charges());
    assertEquals(2, ledger.status("adult").charges());
  }

  @Test
  void grant_exceedingTotalOrWrongMeasure_throws() {
    ledger.register(adult(1, 0).build());
    assertThrows(IllegalArgumentException.class, () -> ledger.grant("adult", "ann", new PureDp(2)));
    assertThrows(IllegalArgumentException.class, () -> ledger.grant("adult", "ann", new Zcdp(0.1)));
    assertThrows(IllegalArgumentException.class, () -> ledger.grant("adult", " ", new PureDp(0.5)));
    ledger.register(adult(1, 1e-6).name("tight").accountant(AccountantKind.ZCDP).build());
    assertThrows(IllegalArgumentException.class, () -> ledger.grant("tight", "ann", new PureDp(0.5)));
    ledger.grant("tight", "ann", new ApproxDp(0.5, 1e-7));
    assertTrue(ledger.grants("adult").isEmpty());
  }

  @Test
  void grant_latestGrantWins() {
    ledger.register(adult(1, 0).build());
    ledger.grant("adult", "ann", new PureDp(0.25));
    ledger.grant("adult", "ann", new PureDp(0.5));
    ledger.charge("adult", "ann", "q", List.of(new PureDp(0.5)));
    assertEquals(2, ledger.grants("adult").size());
  }

  @Test
  void charge_emptyCost_throwsIllegalArgument() {
    ledger.register(adult(1, 0).build());
    assertThrows(IllegalArgumentException.class, () -> ledger.charge("adult", "ann", "q", List.of()));
  }

  @Test
  void store_updateOrDelete_refusedByAppendOnlyTriggers() throws SQLException {
    ledger.register(adult(1, 0).build());
    ledger.grant("adult", "ann", new PureDp(0.5));
    ledger.charge("adult", "ann", "q", List.of(new PureDp(0.5)));
    try (Connection c = where.raw(); Statement s = c.createStatement()) {
      assertThrows(SQLException.class, () -> s.executeUpdate("DELETE FROM charges"));
      assertThrows(SQLException.class, () -> s.executeUpdate("DELETE FROM grants"));
      if (kind == TestLedger.Kind.POSTGRES) {
        assertThrows(SQLException.class, () -> s.executeUpdate("TRUNCATE charges CASCADE"));
      }
      assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE charges SET cost = '[]'"));
      assertThrows(SQLException.class, () -> s.executeUpdate("DELETE FROM datasets"));
    }
    assertEquals(1, ledger.history("adult").size());
    assertEquals(1, ledger.grants("adult").size());
  }

  @Test
  void charge_twoConnectionsOnTwoDatasets_everyChargeCommitsWithDenseIds() throws Exception {
    ledger.register(adult(100, 0).name("a").build());
    ledger.register(adult(100, 0).name("b").build());
    int perThread = 40;
    try (Ledger other = where.open()) {
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
      try {
        // Different datasets take different locks on PostgreSQL, so their charges race for the
        // next id; the loser must be retried, never lost and never given a duplicate id.
        List<java.util.concurrent.Future<?>> runs = List.of(
            pool.submit(() -> chargeTimes(ledger, "a", perThread)),
            pool.submit(() -> chargeTimes(other, "b", perThread)));
        for (java.util.concurrent.Future<?> run : runs) {
          run.get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
    }
    List<Long> ids = new java.util.ArrayList<>();
    for (String d : List.of("a", "b")) {
      List<Charge> h = ledger.history(d);
      assertEquals(perThread, h.size(), d);
      h.forEach(c -> ids.add(c.id()));
    }
    java.util.Collections.sort(ids);
    assertEquals(java.util.stream.LongStream.rangeClosed(1, 2 * perThread).boxed().toList(), ids);
  }

  private static Void chargeTimes(Ledger l, String dataset, int n) {
    for (int i = 0; i < n; i++) {
      l.charge(dataset, "ann", "q" + i, List.of(new PureDp(0.5)));
    }
    return null;
  }

  @Test
  void store_postgresWriteTransaction_commitsSynchronouslyWhateverTheServerDefault() throws SQLException {
    assumeTrue(kind == TestLedger.Kind.POSTGRES, "PostgreSQL's durability settings");
    try (Connection c = where.raw(); Statement s = c.createStatement()) {
      s.execute("SET synchronous_commit TO off"); // as the embedded test server's default is
      LedgerDialect.POSTGRES.beginWrite(c, "adult");
      try (java.sql.ResultSet r = s.executeQuery("SHOW synchronous_commit")) {
        r.next();
        assertEquals("on", r.getString(1));
      }
      s.execute("ROLLBACK");
    }
  }

  @Test
  void store_sqlitePragmas_walFullSyncAndSound() {
    assumeTrue(kind == TestLedger.Kind.SQLITE, "SQLite's durability settings");
    try (JdbcLedgerStore store = JdbcLedgerStore.sqlite(workspace.resolve("other.db"))) {
      assertEquals("wal", store.scalar("PRAGMA journal_mode"));
      assertEquals("2", store.scalar("PRAGMA synchronous")); // 2 = FULL
      assertEquals("ok", store.scalar("PRAGMA integrity_check"));
    }
  }

  @Test
  void store_reopened_keepsItsRowsAndGuards() {
    ledger.register(adult(1, 0).build());
    ledger.charge("adult", "ann", "q", List.of(new PureDp(0.5)));
    ledger.close();
    ledger = where.open(); // creating the schema again is a no-op
    ledger.charge("adult", "ann", "q", List.of(new PureDp(0.25)));
    assertEquals(List.of(1L, 2L), ledger.history("adult").stream().map(Charge::id).toList());
    assertThrows(BudgetExceededException.class,
        () -> ledger.charge("adult", "ann", "q", List.of(new PureDp(0.5))));
  }

  @Test
  void status_remaining_roundedDownNeverNegative() {
    ledger.register(adult(1, 0).build());
    ledger.charge("adult", "ann", "q", List.of(new ApproxDp(0.1, 0)));
    double r = ((ApproxDp) ledger.status("adult").remaining()).epsilon();
    assertTrue(new java.math.BigDecimal(r).compareTo(
        java.math.BigDecimal.ONE.subtract(new java.math.BigDecimal(0.1))) <= 0);
    ledger.register(adult(1, 0).name("full").build());
    ledger.charge("full", "ann", "q", List.of(new ApproxDp(1.0, 0)));
    assertEquals(new ApproxDp(0.0, 0.0), ledger.status("full").remaining());
  }

  @Test
  void json_history_roundTripsDoublesExactly() {
    // Mixed measures are admitted together under a rho-plus-delta budget (ProvenFilter).
    ledger.register(adult(1, 1e-6).budget(new ApproxZcdp(1, 1e-6)).accountant(AccountantKind.ZCDP).build());
    ledger.charge("adult", "ann", "q \"quoted\"", List.of(new ApproxDp(0.1, 1e-7), new Zcdp(1e-4)));
    Charge c = ledger.history("adult").get(0);
    assertEquals(List.of(new ApproxDp(0.1, 1e-7), new Zcdp(1e-4)), c.cost());
    String json = LedgerJson.write(LedgerJson.charges(List.of(c)));
    assertTrue(json.startsWith("[{\"id\":1"), json);
    assertTrue(json.contains("\"query\":\"q \\\"quoted\\\"\""), json);
  }
}
