package org.privet.curator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.Zcdp;
import org.privet.accounting.ZcdpConversion;
import org.privet.engine.MechanismCost;
import org.privet.engine.NoiseKind;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.AccountantKind;
import org.privet.ledger.BudgetStatus;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Grant;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.testing.SeededRandomSource;

/** Charging private partition selection (Gaussian and Laplace) under zCDP-accounted datasets. */
class ZcdpSelectionChargeTest {
  @TempDir Path dir;
  private Path csv;

  @BeforeEach
  void data() throws Exception {
    csv = TestCsv.idGroupValue(dir.resolve("t.csv"), 200);
  }

  private Query.Builder grouped() {
    return Query.from(Source.csv(csv)).privacyUnit("id").maxRowsPerGroup(1)
        .maxGroupsContributed(1).groupBy("g").count("n").sum("s", "v", 0, 10);
  }

  private static Session session(DuckDbBackend backend, LedgerBudgetCharger charger) {
    return Session.builder().backend(backend).budgetCharger(charger)
        .randomSource(new SeededRandomSource(9)).build();
  }

  private DatasetSpec.Builder spec(PrivacyLoss budget) {
    return DatasetSpec.builder().name("t").source(csv.toString())
        .privacyUnit(PrivacyUnit.column("id")).budget(budget).accountant(AccountantKind.ZCDP);
  }

  @Test
  void charge_gaussianSelectionUnderEpsilonDeltaZcdpLedger_refusedAsOutsideTheProvenFilter()
      throws Exception {
    // Issue 10 item 9: a delta of the release's own would move the dataset's conversion delta
    // along the path, which no filter theorem covers (docs/proofs/ledger-filter.md). Before the
    // fix this charge was admitted and converted at 1e-5 minus the selection's delta.
    try (Ledger ledger = Ledger.open(dir.resolve("ws"));
        DuckDbBackend backend = DuckDbBackend.inMemory()) {
      ledger.register(spec(new ApproxDp(3.0, 1e-5)).build());
      LedgerBudgetCharger ch = new LedgerBudgetCharger(ledger, "t", "ann", "q1");
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> session(backend, ch).run(grouped().epsilonDelta(1.0, 1e-6).noise(NoiseKind.GAUSSIAN).build()));
      assertTrue(e.getMessage().contains("--rho and --delta"), e.getMessage());
      assertTrue(ch.committed().isEmpty());
      assertTrue(ledger.history("t").isEmpty());

      // Without a delta of its own, the sum of rhos converts at the dataset's delta, a fixed box.
      LedgerBudgetCharger ok = new LedgerBudgetCharger(ledger, "t", "ann", "q2");
      Result r = session(backend, ok).run(Query.from(Source.csv(csv)).privacyUnit("id")
          .maxRowsPerGroup(1).count("n").sum("s", "v", 0, 10).epsilonDelta(1.0, 1e-6)
          .noise(NoiseKind.GAUSSIAN).build());
      double rho = 0;
      for (PrivacyLoss p : r.receipt().charge().mechanisms().stream().map(MechanismCost::loss).toList()) {
        rho += ((Zcdp) p).rho();
      }
      ApproxDp spent = (ApproxDp) ok.committed().orElseThrow().spent();
      double expected = ZcdpConversion.tightEpsilon(rho, 1e-5);
      assertEquals(expected, spent.epsilon(), 1e-9);
      assertTrue(spent.epsilon() >= expected * (1 - 1e-12), "rounded toward more loss");
      assertEquals(1e-5, spent.delta());
      assertEquals(r.receipt().charge().mechanisms().stream().map(MechanismCost::loss).toList(),
          ledger.history("t").get(0).cost(), "stored parts read back bit for bit");
    }
  }

  @Test
  void charge_gaussianQueryOnBasicDataset_chargedItsOwnEpsilonDeltaTotal() throws Exception {
    // Basic composition is a proven filter for (ε, δ) events only: the query's zCDP parts are
    // converted at its own δ (its total), not jointly with other queries' at a path-dependent δ.
    try (Ledger ledger = Ledger.open(dir.resolve("ws"));
        DuckDbBackend backend = DuckDbBackend.inMemory()) {
      ledger.register(spec(new ApproxDp(3.0, 1e-5)).accountant(AccountantKind.BASIC).build());
      LedgerBudgetCharger gauss = new LedgerBudgetCharger(ledger, "t", "ann", "gauss");
      Result g = session(backend, gauss).run(Query.from(Source.csv(csv)).privacyUnit("id")
          .maxRowsPerGroup(1).count("n").sum("s", "v", 0, 10).epsilonDelta(1.0, 1e-6)
          .noise(NoiseKind.GAUSSIAN).build());
      ApproxDp total = (ApproxDp) g.receipt().charge().total();
      assertTrue(total.epsilon() <= 1.0 && total.delta() <= 1e-6, total.toString());
      assertEquals(List.of(total), ledger.history("t").get(0).cost());
      LedgerBudgetCharger laplace = new LedgerBudgetCharger(ledger, "t", "ann", "laplace");
      Result l = session(backend, laplace).run(Query.from(Source.csv(csv)).privacyUnit("id")
          .maxRowsPerGroup(1).count("n").sum("s", "v", 0, 10).epsilon(1.0)
          .noise(NoiseKind.LAPLACE).build());
      assertEquals(l.receipt().charge().mechanisms().size(), ledger.history("t").get(1).cost().size(),
          "(ε, δ) mechanisms are still recorded one by one");
    }
  }

  @Test
  void charge_selectionDeltaAboveDatasetDelta_isRefusedAndChargesNothing() throws Exception {
    try (Ledger ledger = Ledger.open(dir.resolve("ws"));
        DuckDbBackend backend = DuckDbBackend.inMemory()) {
      ledger.register(spec(new ApproxDp(5.0, 1e-7)).build());
      LedgerBudgetCharger ch = new LedgerBudgetCharger(ledger, "t", "ann", "big-delta");
      // The query's own δ (1e-5 split between selection and conversion) exceeds the dataset's δ.
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> session(backend, ch).run(grouped().epsilonDelta(1.0, 1e-5).build()));
      assertTrue(e.getMessage().contains("delta"), e.getMessage());
      assertTrue(ch.committed().isEmpty());
      assertTrue(ledger.history("t").isEmpty());
    }
  }

  @Test
  void charge_rhoDeltaDataset_addsRhosAndDeltasUntilEitherRunsOut() throws Exception {
    try (Ledger ledger = Ledger.open(dir.resolve("ws"));
        DuckDbBackend backend = DuckDbBackend.inMemory()) {
      ledger.register(spec(new ApproxZcdp(1.0, 2.5e-6)).build());
      List<String> admitted = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        LedgerBudgetCharger ch = new LedgerBudgetCharger(ledger, "t", "ann", "q" + i);
        try {
          session(backend, ch).run(grouped().rhoDelta(0.2, 1e-6).build());
          admitted.add("q" + i);
        } catch (BudgetExceededException e) {
          assertTrue(ch.committed().isEmpty());
        }
      }
      // δ runs out first: 2.5e-6 pays for two selections of 1e-6, not three.
      assertEquals(List.of("q0", "q1"), admitted);
      BudgetStatus st = ledger.status("t");
      ApproxZcdp spent = (ApproxZcdp) st.spent();
      assertEquals(0.4, spent.rho(), 1e-9);
      assertTrue(spent.delta() <= 2e-6 && spent.delta() > 1.99e-6, spent.toString());
      ApproxZcdp left = (ApproxZcdp) st.remaining();
      assertEquals(0.6, left.rho(), 1e-9);
      assertEquals(0.5e-6, left.delta(), 1e-12);
      assertTrue(left.rho() + spent.rho() <= 1.0 && left.delta() + spent.delta() <= 2.5e-6);
    }
  }

  @Test
  void charge_selectionUnderPureRhoDataset_isRefusedNamingDelta() throws Exception {
    try (Ledger ledger = Ledger.open(dir.resolve("ws"));
        DuckDbBackend backend = DuckDbBackend.inMemory()) {
      ledger.register(spec(new Zcdp(1.0)).build());
      LedgerBudgetCharger ch = new LedgerBudgetCharger(ledger, "t", "ann", "q");
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> session(backend, ch).run(grouped().rhoDelta(0.2, 1e-6).build()));
      assertTrue(e.getMessage().contains("delta"), e.getMessage());
      assertTrue(ledger.history("t").isEmpty());
      // Without selection the same dataset pays in ρ.
      LedgerBudgetCharger ok = new LedgerBudgetCharger(ledger, "t", "ann", "ungrouped");
      session(backend, ok).run(Query.from(Source.csv(csv)).privacyUnit("id").maxRowsPerGroup(1)
          .count("n").rho(0.2).build());
      assertEquals(0.2, ((Zcdp) ok.committed().orElseThrow().spent()).rho(), 1e-9);
    }
  }

  @Test
  void register_rhoDeltaBudget_needsZcdpAccountantAndRoundTrips() throws Exception {
    assertThrows(IllegalArgumentException.class, () -> spec(new ApproxZcdp(1, 1e-6))
        .accountant(AccountantKind.BASIC).build());
    try (Ledger ledger = Ledger.open(dir.resolve("ws"))) {
      ledger.register(spec(new ApproxZcdp(1, 1e-6)).build());
      assertEquals(org.privet.accounting.Budget.zcdp(1, 1e-6), ledger.dataset("t").budget());
      Grant g = ledger.grant("t", "bob", new ApproxZcdp(0.5, 5e-7));
      assertEquals(org.privet.accounting.Budget.zcdp(0.5, 5e-7), g.share());
      assertThrows(IllegalArgumentException.class,
          () -> ledger.grant("t", "bob", new ApproxZcdp(0.5, 5e-6)));
      assertThrows(IllegalArgumentException.class,
          () -> ledger.grant("t", "bob", new ApproxDp(0.5, 5e-7)));
    }
  }
}
