package org.privet.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.accounting.ZcdpConversion;

/**
 * Issue 10 item 9: every dataset's admission rule is a fixed box covered by one filter theorem
 * (docs/proofs/ledger-filter.md). The refusals keep the rule inside its box; the adaptive runs
 * check, over many randomly and adaptively chosen charge sequences, that the admitted events'
 * exact sums always end inside the box fixed at registration, whatever path the analyst took.
 */
class ProvenFilterTest {
  @TempDir Path workspace;
  Ledger ledger;

  @BeforeEach
  void open() {
    ledger = Ledger.open(workspace);
  }

  @AfterEach
  void close() {
    ledger.close();
  }

  private static DatasetSpec spec(String name, PrivacyLoss budget, AccountantKind accountant) {
    return DatasetSpec.builder().name(name).source("/data/" + name + ".csv")
        .privacyUnit(PrivacyUnit.row()).budget(budget).accountant(accountant).build();
  }

  @Test
  void charge_rhoEventOnBasicDataset_refusedNamingTheRuleAndChargesNothing() {
    ledger.register(spec("b", new ApproxDp(1, 1e-6), AccountantKind.BASIC));
    for (PrivacyLoss rho : List.of(new Zcdp(0.01), new ApproxZcdp(0.01, 1e-8))) {
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> ledger.charge("b", "eve", "q", List.of(new PureDp(0.1), rho)));
      assertTrue(e.getMessage().contains("basic composition") && e.getMessage().contains("nothing was charged"),
          e.getMessage());
    }
    ledger.charge("b", "eve", "q", List.of(new PureDp(0.1), new ApproxDp(0.2, 1e-7)));
    assertEquals(1, ledger.history("b").size());
  }

  @Test
  void charge_ownDeltaOnEpsilonDeltaZcdpDataset_refusedWhileRhosAndPureAreAdmitted() {
    ledger.register(spec("z", new ApproxDp(1, 1e-6), AccountantKind.ZCDP));
    for (PrivacyLoss withDelta : List.of(new ApproxDp(0.1, 1e-9), new ApproxZcdp(0.001, 1e-9))) {
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> ledger.charge("z", "eve", "q", List.of(withDelta)));
      assertTrue(e.getMessage().contains("--rho and --delta"), e.getMessage());
    }
    ledger.charge("z", "eve", "q", List.of(new PureDp(0.05), new Zcdp(0.001), new ApproxDp(0.05, 0)));
    assertEquals(1, ledger.history("z").size());
  }

  /** The box of each kind of dataset, as exact sums of what was admitted. */
  private interface Box {
    /**
     * @param epsilons Σε of events read as (ε, δ)
     * @param rhos Σρ of all events, ε-events as ε²/2
     * @param deltas Σδ of all events
     * @param rhoEvents Σρ of the events stated in ρ only
     */
    boolean contains(BigDecimal epsilons, BigDecimal rhos, BigDecimal deltas, BigDecimal rhoEvents);
  }

  /** Runs random adaptive charge sequences and checks the admitted sums against the box. */
  private void adaptiveRuns(String prefix, PrivacyLoss budget, AccountantKind accountant, Box box,
      long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int run = 0; run < 10; run++) {
      String name = prefix + run;
      ledger.register(spec(name, budget, accountant));
      BigDecimal eps = BigDecimal.ZERO;
      BigDecimal rho = BigDecimal.ZERO;
      BigDecimal del = BigDecimal.ZERO;
      BigDecimal rhoEvents = BigDecimal.ZERO;
      boolean lastRefused = false;
      for (int step = 0; step < 30; step++) {
        // Adaptive: after a refusal the analyst switches measure and shrinks the request.
        double scale = lastRefused ? 0.02 : 0.2;
        int kind = random.nextInt(5);
        PrivacyLoss e = switch (kind) {
          case 0 -> new PureDp(scale * random.nextDouble() + 1e-3);
          case 1 -> new ApproxDp(scale * random.nextDouble() + 1e-3, 1e-8 * random.nextInt(3));
          case 2 -> new Zcdp(scale * scale * random.nextDouble() + 1e-5);
          case 3 -> new ApproxZcdp(scale * scale * random.nextDouble() + 1e-5, 1e-8 * random.nextInt(3));
          default -> new ApproxDp(scale * random.nextDouble() + 1e-3, 0);
        };
        try {
          ledger.charge(name, "eve", "q", List.of(e));
          lastRefused = false;
        } catch (BudgetExceededException refused) {
          lastRefused = true;
          continue;
        }
        if (e instanceof PureDp p) {
          eps = eps.add(new BigDecimal(p.epsilon()));
          rho = rho.add(half(p.epsilon()));
        } else if (e instanceof ApproxDp a) {
          eps = eps.add(new BigDecimal(a.epsilon()));
          rho = rho.add(half(a.epsilon()));
          del = del.add(new BigDecimal(a.delta()));
        } else if (e instanceof Zcdp z) {
          rho = rho.add(new BigDecimal(z.rho()));
          rhoEvents = rhoEvents.add(new BigDecimal(z.rho()));
        } else {
          ApproxZcdp z = (ApproxZcdp) e;
          rho = rho.add(new BigDecimal(z.rho()));
          rhoEvents = rhoEvents.add(new BigDecimal(z.rho()));
          del = del.add(new BigDecimal(z.delta()));
        }
        assertTrue(box.contains(eps, rho, del, rhoEvents), name + " step " + step + " left its box: eps=" + eps
            + " rho=" + rho + " delta=" + del);
      }
      assertTrue(ledger.history(name).size() > 0, "some charges admitted in " + name);
    }
  }

  private static BigDecimal half(double epsilon) {
    BigDecimal e = new BigDecimal(epsilon);
    return e.multiply(e).divide(BigDecimal.valueOf(2));
  }

  private static BigDecimal big(double d) {
    return new BigDecimal(d);
  }

  @Test
  void charge_adaptiveSequences_basicDatasetStaysInItsEpsilonDeltaBox() {
    adaptiveRuns("basic", new ApproxDp(1, 1e-7), AccountantKind.BASIC,
        (eps, rho, del, rhoEvents) -> eps.compareTo(big(1)) <= 0 && del.compareTo(big(1e-7)) <= 0
            && rhoEvents.signum() == 0, 11);
  }

  @Test
  void charge_adaptiveSequences_epsilonDeltaZcdpDatasetStaysUnderAFixedRho() {
    // ρ* fixed at registration: the largest ρ whose conversion at δ_B is within ε_B; no δ spent.
    double lo = 0;
    double hi = 1;
    for (int i = 0; i < 200; i++) {
      double mid = (lo + hi) / 2;
      if (ZcdpConversion.tightEpsilon(mid, 1e-6) <= 1.0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    double rhoStar = hi; // every ρ the conversion admits at δ_B is below it
    adaptiveRuns("zed", new ApproxDp(1, 1e-6), AccountantKind.ZCDP,
        (eps, rho, del, rhoEvents) -> rho.compareTo(big(rhoStar)) <= 0 && del.signum() == 0, 12);
  }

  @Test
  void charge_adaptiveSequences_rhoDeltaDatasetStaysInItsRhoDeltaBox() {
    adaptiveRuns("rd", new ApproxZcdp(0.05, 1e-7), AccountantKind.ZCDP,
        (eps, rho, del, rhoEvents) -> rho.compareTo(big(0.05)) <= 0 && del.compareTo(big(1e-7)) <= 0, 13);
  }

  @Test
  void charge_adaptiveSequences_rhoDatasetStaysUnderItsRhoWithNoDelta() {
    adaptiveRuns("r", new Zcdp(0.05), AccountantKind.ZCDP,
        (eps, rho, del, rhoEvents) -> rho.compareTo(big(0.05)) <= 0 && del.signum() == 0, 14);
  }
}
